import { describe, expect, it } from 'vitest';
import {
  createAddressBook,
  loadAddressBook,
  parseCsvRows,
  parseLabelsCsv,
  parseLabelsJson,
} from './address-book.ts';

const A = '0x28c6c06298d514db089934071355e5743bf21d60';
const B = '0x71660c4005ba85c37ccec55d0c4493e66fe775d3';

describe('address book', () => {
  it('parses quoted CSV cells with commas', () => {
    expect(parseCsvRows('a,b\n1,"2,5 ETH"\r\n\n3,"say ""hi"""\n')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', '2,5 ETH'] },
      { line: 4, cells: ['3', 'say "hi"'] },
    ]);
  });

  it('reads Etherscan exports: exchange from the file name, tag from "Name Tag"', () => {
    const set = parseLabelsCsv(
      `,Address,Name Tag,Balance,Txn Count\n0,${A.toUpperCase().replace('0X', '0x')},Binance 14,"141,702.6 ETH",13856013\n`,
      {
        source: 'binance.csv',
        defaultExchange: 'Binance',
        defaultChain: 'ethereum',
      },
    );
    expect(set.problems).toEqual([]);
    expect(set.labels).toEqual([
      {
        exchange: 'binance',
        chain: 'ethereum',
        address: A,
        tag: 'Binance 14',
        source: 'binance.csv',
        version: set.version,
      },
    ]);
  });

  it('reports every malformed row with its line, never drops it silently', () => {
    const csv = [
      'exchange,chain,address,tag',
      `okx,ethereum,${A},OKX 1`,
      'okx,ethereum,0x1234,short',
      `,ethereum,${B},no exchange`,
      `okx,ethereum,${B}`,
      'okx,ethereum,,empty',
      `kraken,Not A Chain!,${B},bad chain`,
    ].join('\n');
    const set = parseLabelsCsv(csv, { source: 'ops.csv' });
    expect(set.labels.map((l) => l.address)).toEqual([A]);
    expect(set.problems.map((p) => [p.line, p.message])).toEqual([
      [3, expect.stringContaining('not a 0x-prefixed 20-byte hex address')],
      [4, 'exchange is missing'],
      [5, 'expected 4 columns, found 3'],
      [6, 'address is missing'],
      [7, expect.stringContaining('not a valid chain name')],
    ]);
  });

  it('reads versioned JSON and reports bad entries', () => {
    const set = parseLabelsJson(
      JSON.stringify({
        version: '7',
        labels: [{ exchange: 'OKEx', address: A, tag: 'x' }, { exchange: 'okx' }, 5],
      }),
      { source: 'ops.json', normalize: (n) => (n.toLowerCase() === 'okex' ? 'okx' : n.toLowerCase()) },
    );
    expect(set.version).toBe('7');
    expect(set.labels).toEqual([
      { exchange: 'okx', chain: 'ethereum', address: A, tag: 'x', source: 'ops.json', version: '7' },
    ]);
    expect(set.problems.map((p) => p.line)).toEqual([2, 3]);
    expect(parseLabelsJson('{nope', { source: 'bad.json' }).problems[0]?.message).toMatch(/not valid JSON/);
  });

  it('lets later sources override earlier ones and versions the merged content', () => {
    const base = parseLabelsCsv(`exchange,address,tag\nbinance,${A},Binance 14\n`, { source: 'default' });
    const ops = parseLabelsCsv(
      `exchange,address,tag\ncoinbase,${A},relabelled\nkraken,${B},K\nokx,${B},O\n`,
      {
        source: 'ops',
      },
    );
    const before = createAddressBook([base]);
    const book = createAddressBook([base, ops]);
    expect(book.lookup('ethereum', A.toUpperCase().replace('0X', '0x'))?.exchange).toBe('coinbase');
    expect(book.lookup('ethereum', B)?.exchange).toBe('okx');
    expect(book.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('labelled both kraken and okx'),
    ]);
    expect(book.version).not.toBe(before.version);
    expect(createAddressBook([base, ops]).version).toBe(book.version);
    expect(book.exchanges()).toEqual(['coinbase', 'okx']);
  });

  it('ships a small default set for the four big exchanges without problems', () => {
    const book = loadAddressBook();
    expect(book.problems).toEqual([]);
    expect(book.exchanges()).toEqual(['binance', 'coinbase', 'kraken', 'okx']);
    expect(book.size).toBeGreaterThanOrEqual(8);
    expect(book.sources[0]?.version).toBe('2025.1');
  });

  it('reports a missing operator path', () => {
    const book = loadAddressBook({ extraPaths: ['/nonexistent/labels.csv'] });
    expect(book.problems[0]?.message).toMatch(/cannot read/);
  });
});
