import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../../../test/harness/shared-data.ts';
import { loadAddressBook } from './index.ts';
import { normalizeExchange } from '../identifiers/index.ts';

const LABELS = resolve(process.cwd(), '../shared/data/labels/ethereum');
const present = sharedDataPresent('real label tests', LABELS);

const normalize = (name: string) => normalizeExchange(name).value;

describe.skipIf(!present)('address book from the shared Etherscan label exports', () => {
  const temp = mkdtempSync(join(tmpdir(), 'meridian-labels-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('loads every row of binance, coinbase, kraken and okx with its exchange, chain and tag', () => {
    const book = loadAddressBook({ extraPaths: [LABELS], normalize, includeDefaults: false });
    expect(book.problems).toEqual([]);
    const rows = ['binance', 'coinbase', 'kraken', 'okx'].map(
      (name) =>
        readFileSync(join(LABELS, `${name}.csv`), 'utf8')
          .trim()
          .split('\n').length - 1,
    );
    expect(rows).toEqual([57, 25, 18, 26]);
    expect(book.size).toBe(57 + 25 + 18 + 26);
    expect(book.exchanges()).toEqual(['binance', 'coinbase', 'kraken', 'okx']);
    expect(book.lookup('ethereum', '0x28C6c06298d514Db089934071355E5743bf21d60')).toMatchObject({
      exchange: 'binance',
      chain: 'ethereum',
      tag: 'Binance 14',
    });
    expect(book.labels('ethereum').every((l) => /^0x[0-9a-f]{40}$/.test(l.address))).toBe(true);
  });

  it('the shipped defaults agree with the shared labels wherever they overlap', () => {
    const shared = loadAddressBook({ extraPaths: [LABELS], normalize, includeDefaults: false });
    const defaults = loadAddressBook({ normalize });
    for (const label of defaults.labels()) {
      expect(shared.lookup(label.chain, label.address), label.address).toMatchObject({
        exchange: label.exchange,
        tag: label.tag,
      });
    }
  });

  it('reports malformed rows appended to a real file, line by line, and keeps the good rows', () => {
    const dir = join(temp, 'ethereum');
    mkdirSync(dir);
    copyFileSync(join(LABELS, 'kraken.csv'), join(dir, 'kraken.csv'));
    const original = readFileSync(join(dir, 'kraken.csv'), 'utf8').trimEnd();
    const lines = original.split('\n').length;
    writeFileSync(
      join(dir, 'kraken.csv'),
      `${original}\n99,0xNOTANADDRESS,Kraken 99,1 ETH,1\n100,0x2910543af39aba0cd09dbb2d50200b3e800a63d2,Kraken,1 ETH\n101,,Kraken 101,0 ETH,0\n`,
    );
    const book = loadAddressBook({ extraPaths: [dir], normalize, includeDefaults: false });
    expect(book.size).toBe(18);
    expect(book.problems.map((p) => [p.source.endsWith('kraken.csv'), p.line, p.message])).toEqual([
      [true, lines + 1, expect.stringContaining('0xNOTANADDRESS')],
      [true, lines + 2, 'expected 5 columns, found 4'],
      [true, lines + 3, 'address is missing'],
    ]);
    expect(book.sources).toEqual([expect.objectContaining({ labels: 18, problems: 3 })]);
  });
});

const EXPLORER = resolve(process.cwd(), '../shared/data/labels/etherscan-labels');

describe.skipIf(!sharedDataPresent('explorer label tests', EXPLORER))(
  'address book from the shared explorer exports (seven EVM chains)',
  () => {
    it('loads the exchange wallets of every chain with their file and version, without problems', () => {
      const book = loadAddressBook({ extraPaths: [EXPLORER], normalize, includeDefaults: false });
      expect(book.problems).toEqual([]);
      expect(book.sources).toHaveLength(7);
      const version = readFileSync(join(EXPLORER, 'SOURCE'), 'utf8').trim().split(/\s+/);
      for (const source of book.sources)
        expect(source.version).toBe(`${version[0]?.slice(0, 12)}@${version[1]}`);
      const coverage = book.coverage();
      const ethereum = coverage.chains.find((c) => c.chain === 'ethereum');
      expect(ethereum?.addresses).toBeGreaterThanOrEqual(350);
      expect(ethereum?.exchanges).toBeGreaterThanOrEqual(17);
      expect(coverage.chains.map((c) => c.chain)).toEqual(
        expect.arrayContaining(['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'avalanche']),
      );
      // Explorer spellings end up canonical: huobi → htx, gate-io → gateio; no `okex`, no `huobi`.
      expect(book.exchanges()).toEqual(expect.arrayContaining(['binance', 'okx', 'htx', 'gateio', 'kraken']));
      expect(book.exchanges()).not.toContain('huobi');
      expect(book.lookup('ethereum', '0x28C6c06298d514Db089934071355E5743bf21d60')).toMatchObject({
        exchange: 'binance',
        tag: 'Binance 14',
        source: join(EXPLORER, 'etherscan-accounts.json'),
      });
      // Token contracts an exchange deployed are not its wallets.
      expect(book.lookup('ethereum', '0xb8c77482e45f1f44de1745f52c74426c631bdd52')).toBeUndefined();
    });

    it('agrees with the per-exchange CSV exports wherever both label an address', () => {
      const explorer = loadAddressBook({ extraPaths: [EXPLORER], normalize, includeDefaults: false });
      const csv = loadAddressBook({ extraPaths: [LABELS], normalize, includeDefaults: false });
      let shared = 0;
      for (const label of csv.labels()) {
        const other = explorer.lookup(label.chain, label.address);
        if (!other) continue;
        shared++;
        expect(other.exchange, label.address).toBe(label.exchange);
      }
      expect(shared).toBeGreaterThan(100);
    });
  },
);
