import { describe, expect, it } from 'vitest';
import { detectDelimiter, readCsvRows } from './csv.ts';
import { parseAcquiredAt, validateRows } from './rows.ts';

const NOW = Date.UTC(2026, 0, 1);

describe('acquired time', () => {
  it.each([
    ['2024-03-01T12:00:00Z', Date.UTC(2024, 2, 1, 12)],
    ['2024-03-01T12:00:00.250+02:00', Date.UTC(2024, 2, 1, 10, 0, 0, 250)],
    ['2024-03-01', Date.UTC(2024, 2, 1)],
    ['2024-03-01 12:00 UTC', Date.UTC(2024, 2, 1, 12)],
    ['03/01/2024 12:00:00', Date.UTC(2024, 2, 1, 12)],
    ['01.03.2024 12:00', Date.UTC(2024, 2, 1, 12)],
    ['1709294400', Date.UTC(2024, 2, 1, 12)],
    ['1709294400000', Date.UTC(2024, 2, 1, 12)],
  ])('reads %s', (text, expected) => {
    expect(parseAcquiredAt(text)).toBe(expected);
  });

  it.each(['yesterday', '2024-02-30', '13/01/2024', '2024-03-01T25:00:00Z', ''])('refuses %j', (text) => {
    expect(parseAcquiredAt(text)).toBeUndefined();
  });
});

describe('row validation', () => {
  const opts = { now: NOW, extraAssets: ['BTC', 'ETH'] };

  it('collects every problem of every row', () => {
    const { valid, problems } = validateRows(
      [
        { asset: 'BTC', quantity: '1' },
        { asset: 'dogecoin', quantity: '0', costBasis: '-1', costCurrency: 'EUR' },
        { quantity: '1e-19', acquiredAt: '2008-01-01' },
      ],
      opts,
    );
    expect(valid).toEqual([]);
    expect(problems.map((p) => `${p.row} ${p.field}`)).toEqual([
      '2 quantity',
      '2 costBasis',
      '2 costCurrency',
      '3 asset',
      '3 quantity',
      '3 acquiredAt',
    ]);
  });

  it('normalizes what it accepts', () => {
    const { valid } = validateRows(
      [{ asset: 'Ethereum', quantity: '1.500', costBasis: '2e3', costCurrency: 'usdc', venue: ' kraken ' }],
      opts,
    );
    expect(valid).toEqual([
      {
        asset: 'ETH',
        quantity: '1.5',
        costBasis: '2000',
        costCurrency: 'USD',
        acquiredAt: null,
        venue: 'kraken',
        note: null,
        externalId: null,
      },
    ]);
  });
});

describe('CSV reading', () => {
  it('picks the delimiter the header uses', () => {
    expect(detectDelimiter('a;b;c\n1;2;3')).toBe(';');
    expect(detectDelimiter('a,b\n"1;2",3')).toBe(',');
    expect(detectDelimiter('a\tb\tc\n')).toBe('\t');
  });

  it('finds the header below preamble lines and reports ignored columns and start lines', async () => {
    const csv = 'Report\nAccount,42\nType,Asset,Quantity\nBuy,BTC,1\n\nBuy,"ETH","2"\n';
    const read = await readCsvRows(csv);
    expect(read.rows).toEqual([
      { asset: 'BTC', quantity: '1' },
      { asset: 'ETH', quantity: '2' },
    ]);
    expect(read.lines).toEqual([4, 6]);
    expect(read.ignoredColumns).toEqual(['Type']);
  });

  it('refuses a CSV without a usable header and an unterminated quote', async () => {
    await expect(readCsvRows('foo,bar\n1,2\n')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(readCsvRows('asset,quantity\n"BTC,1\n')).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
