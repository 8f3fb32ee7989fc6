import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CandleFileError,
  listCandleFiles,
  parseCandleCsv,
  parseCandleFileName,
  parseFreqtradeJson,
  readCandleFile,
} from './candle-files.ts';
import { findGaps, mergeVenueCandles, resample } from './candles.ts';

const T0 = Date.UTC(2024, 0, 1);

describe('candle files', () => {
  it('reads freqtrade JSON and estimates quote volume', () => {
    const out = parseFreqtradeJson(JSON.stringify([[T0, 10, 12, 9, 11, 2]]));
    expect(out).toEqual([
      { openTime: T0, open: 10, high: 12, low: 9, close: 11, volume: 2, quoteVolume: 21 },
    ]);
  });

  it('reads CSV with ms, seconds and ISO timestamps, sorts and drops duplicates (later wins)', () => {
    const csv = [
      'timestamp,open,high,low,close,volume',
      `${T0 + 120_000},3,3,3,3,1`,
      `${(T0 + 60_000) / 1000},2,2,2,2,1`,
      '2024-01-01T00:00:00Z,1,1,1,1,1',
      '2024-01-01 00:02:00,4,4,4,4,1',
      '',
    ].join('\n');
    const out = parseCandleCsv(csv);
    expect(out.map((c) => [c.openTime - T0, c.open])).toEqual([
      [0, 1],
      [60_000, 2],
      [120_000, 4],
    ]);
  });

  it('names the line of a malformed CSV row and rejects a wrong header', () => {
    expect(() => parseCandleCsv('timestamp,open,high,low,close,volume\n1,2,x,4,5,6', 'a.csv')).toThrow(
      /a.csv: line 2/,
    );
    expect(() => parseCandleCsv('time,o,h,l,c,v\n')).toThrow(CandleFileError);
    expect(() => parseFreqtradeJson('[[1,2,3]]')).toThrow(/row 0/);
  });

  it('parses file names', () => {
    expect(parseCandleFileName('/x/BTC_USDT-5m.json')).toMatchObject({
      symbol: 'BTCUSDT',
      interval: '5m',
      market: 'spot',
    });
    expect(parseCandleFileName('BTC_USDT_USDT-15m-futures.json')).toMatchObject({
      symbol: 'BTCUSDT',
      interval: '15m',
      market: 'futures',
    });
    expect(parseCandleFileName('ethusdt-1h.csv')).toMatchObject({ symbol: 'ETHUSDT', interval: '1h' });
    expect(parseCandleFileName('BTC_USDT_USDT-8h-funding_rate.json')).toBeUndefined();
  });

  it('lists and reads files of a folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'candles-'));
    writeFileSync(join(dir, 'ETH_USDT-5m.json'), JSON.stringify([[T0, 1, 1, 1, 1, 1]]));
    writeFileSync(join(dir, 'ETH_USDT-1m.csv'), `timestamp,open,high,low,close,volume\n${T0},1,1,1,1,1\n`);
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const files = await listCandleFiles(dir);
    expect(files.map((f) => f.interval)).toEqual(['1m', '5m']);
    expect(await readCandleFile(files[0]!.path)).toHaveLength(1);
  });
});

describe('resample, gaps and merge', () => {
  const bar = (i: number, o: number, h: number, l: number, c: number, v = 1) => ({
    openTime: T0 + i * 60_000,
    open: o,
    high: h,
    low: l,
    close: c,
    volume: v,
    quoteVolume: v * c,
  });
  const ones = [
    bar(0, 10, 11, 9, 10),
    bar(1, 10, 14, 10, 13),
    bar(2, 13, 13, 8, 9),
    bar(5, 9, 9, 9, 9),
    bar(7, 9, 10, 9, 10),
  ];

  it('rolls up without filling gaps', () => {
    const fives = resample(ones, 300_000);
    expect(fives).toEqual([
      { openTime: T0, open: 10, high: 14, low: 8, close: 9, volume: 3, quoteVolume: 32 },
      { openTime: T0 + 300_000, open: 9, high: 10, low: 9, close: 10, volume: 2, quoteVolume: 19 },
    ]);
    expect(resample(ones, 300_000, { requireComplete: true, fromMs: 60_000 })).toEqual([]);
  });

  it('finds gaps', () => {
    expect(findGaps(ones, 60_000)).toEqual([
      { from: T0 + 180_000, to: T0 + 300_000, missingBars: 2 },
      { from: T0 + 360_000, to: T0 + 420_000, missingBars: 1 },
    ]);
  });

  it('merges venue candles volume-weighted', () => {
    const merged = mergeVenueCandles([bar(0, 100, 110, 90, 100, 3), bar(0, 104, 106, 94, 108, 1)]);
    expect(merged).toEqual({
      openTime: T0,
      open: 101,
      high: 109,
      low: 91,
      close: 102,
      volume: 4,
      quoteVolume: 408,
    });
  });
});
