import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAddressBook, type LabelSet, loadAddressBook, parseLabelsJson } from './address-book.ts';

const A = '0x28c6c06298d514db089934071355e5743bf21d60';
const B = '0x71660c4005ba85c37ccec55d0c4493e66fe775d3';
const C = '0x2910543af39aba0cd09dbb2d50200b3e800a63d2';

const explorer = {
  [A]: { name: 'Binance 14', labels: ['binance', 'exchange'] },
  [B]: { name: 'OKEx 3', labels: ['okex'] },
  [C]: { name: 'Uniswap V3: Router', labels: ['uniswap', 'dex'] },
  '0xb8c77482e45f1f44de1745f52c74426c631bdd52': { name: 'Binance: BNB Token', labels: ['binance'] },
  '0x0000000000000000000000000000000000000001': { name: 'Huobi 1', labels: ['huobi', 'derivatives'] },
  '': { name: '', labels: ['binance', 'kraken', 'okx'] },
};

describe('explorer label exports', () => {
  const temp = mkdtempSync(join(tmpdir(), 'meridian-explorer-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('keeps the exchange wallets, normalises their names and counts the other accounts as ignored', () => {
    const set = parseLabelsJson(JSON.stringify(explorer), {
      source: 'etherscan-accounts.json',
      defaultChain: 'ethereum',
    });
    expect(set.problems).toEqual([]);
    expect(set.labels.map((l) => [l.address, l.exchange, l.tag])).toEqual([
      [A, 'binance', 'Binance 14'],
      [B, 'okx', 'OKEx 3'],
      ['0x0000000000000000000000000000000000000001', 'htx', 'Huobi 1'],
    ]);
    // The router (not an exchange), the BNB token contract and the explorer's all-tags index row.
    expect(set.ignored).toBe(3);
  });

  it('takes the chain from the explorer in the file name and the version from a SOURCE file', () => {
    const dir = join(temp, 'explorer');
    mkdirSync(dir);
    writeFileSync(join(dir, 'SOURCE'), '923aba72c7e2d0682f7ae6194b6140bd90668dc9 2023-10-02\n');
    writeFileSync(join(dir, 'bscscan-accounts.json'), JSON.stringify({ [A]: explorer[A] }));
    writeFileSync(join(dir, 'polygonscan-accounts.json'), JSON.stringify({ [A]: explorer[B] }));
    writeFileSync(join(dir, 'mystery-accounts.json'), JSON.stringify({ [A]: explorer[A] }));
    const book = loadAddressBook({ extraPaths: [dir] });
    expect(book.lookup('bsc', A)).toMatchObject({
      exchange: 'binance',
      source: join(dir, 'bscscan-accounts.json'),
      version: '923aba72c7e2@2023-10-02',
    });
    expect(book.lookup('polygon', A)?.exchange).toBe('okx');
    expect(book.lookup('ethereum', A)?.source).toMatch(/default-labels\.json$/);
    expect(book.problems.map((p) => [p.source.endsWith('mystery-accounts.json'), p.message])).toEqual([
      [true, expect.stringContaining('names no chain')],
    ]);
  });

  it('lets an operator file override an explorer label, keeping the winner’s provenance', () => {
    const dir = join(temp, 'override');
    mkdirSync(join(dir, '1-explorer'), { recursive: true });
    writeFileSync(join(dir, '1-explorer', 'etherscan-accounts.json'), JSON.stringify(explorer));
    writeFileSync(join(dir, '2-ops.csv'), `exchange,chain,address,tag\nkraken,ethereum,${B},Kraken 9\n`);
    const book = loadAddressBook({ extraPaths: [dir], includeDefaults: false });
    expect(book.lookup('ethereum', B)).toMatchObject({
      exchange: 'kraken',
      tag: 'Kraken 9',
      source: join(dir, '2-ops.csv'),
    });
    expect(book.lookup('ethereum', A)?.source).toBe(join(dir, '1-explorer', 'etherscan-accounts.json'));
    expect(book.coverage()).toEqual({
      exchanges: [
        { exchange: 'binance', addresses: 1, chains: [{ chain: 'ethereum', addresses: 1 }] },
        { exchange: 'htx', addresses: 1, chains: [{ chain: 'ethereum', addresses: 1 }] },
        { exchange: 'kraken', addresses: 1, chains: [{ chain: 'ethereum', addresses: 1 }] },
      ],
      chains: [{ chain: 'ethereum', addresses: 3, exchanges: 3 }],
    });
  });
});

const CHAINS = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'avalanche', 'fantom'];
const EXCHANGES = ['binance', 'okx', 'coinbase', 'kraken', 'htx', 'bitfinex', 'kucoin', 'gemini'];

function syntheticSets(n: number): LabelSet[] {
  const labels = Array.from({ length: n }, (_, i) => {
    const exchange = EXCHANGES[i % EXCHANGES.length] as string;
    return {
      exchange,
      chain: CHAINS[i % CHAINS.length] as string,
      address: `0x${i.toString(16).padStart(40, '0')}`,
      tag: `${exchange} ${i}`,
      source: '/labels/synthetic.csv',
      version: 'v1',
    };
  });
  return [{ source: '/labels/synthetic.csv', version: 'v1', labels, problems: [] }];
}

describe('address book at scale', () => {
  // Its heap bound (100 k labels ≤ 30 MB, docs/onchain.md) needs V8's collector: `npx tsx bench/run.ts labels`.
  it('holds 100 k labels, every one found by chain and address', () => {
    const book = createAddressBook(syntheticSets(100_000));
    expect(book.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 997) {
      const address = `0x${i.toString(16).padStart(40, '0')}`;
      expect(
        book.lookup(CHAINS[i % CHAINS.length] as string, address.toUpperCase().replace('0X', '0x')),
      ).toMatchObject({ address, tag: `${EXCHANGES[i % EXCHANGES.length]} ${i}` });
      expect(book.lookup(CHAINS[(i + 1) % CHAINS.length] as string, address)).toBeUndefined();
    }
    expect(book.coverage().chains).toHaveLength(7);
  });
});
