import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../../../../test/harness/shared-data.ts';
import { deriveTrades, minuteBars, replaySource } from './index.ts';
import { MarketEngine } from '../../../modules/market/engine.ts';
import { type Candle, type MarketEvent, readCandleFile, resample } from '../../../modules/market/index.ts';
import type { CandleClosed } from '../../../modules/market/types.ts';
import { manualClock } from '../../../shared/clock.ts';

const folder = resolve(process.cwd(), '../shared/data/market/binance-spot-2021');
const present = sharedDataPresent('replay tests on real data', resolve(folder, 'BTC_USDT-1m.json'));

describe('derived trades', () => {
  const bar: Candle = {
    openTime: Date.UTC(2021, 0, 1),
    open: 10,
    high: 14,
    low: 9,
    close: 12,
    volume: 8,
    quoteVolume: 90,
  };
  it('rebuild the bar exactly, also as 1m bars of a 5m bar', () => {
    const trades = deriveTrades(bar, 300_000);
    expect(trades.map((t) => t.price)).toEqual([10, 9, 14, 12]); // low first: nearer the open
    expect(trades.every((t) => t.time >= bar.openTime && t.time < bar.openTime + 300_000)).toBe(true);
    const minutes = minuteBars(bar, 300_000);
    expect(minutes.length).toBeGreaterThan(1);
    const [rebuilt] = resample(minutes, 300_000);
    expect(rebuilt).toMatchObject({
      openTime: bar.openTime,
      open: 10,
      high: 14,
      low: 9,
      close: 12,
      volume: 8,
    });
  });
});

describe.skipIf(!present)('replay of recorded Binance 1m data', () => {
  it('plays bars as trades that rebuild the recorded candles, and leaves the 2021-04-20 gap empty and stale', async () => {
    const bars = await readCandleFile(resolve(folder, 'BTC_USDT-1m.json'));
    const gapStart = Date.UTC(2021, 3, 20, 2, 0); // 150 bars missing from here
    const startAt = gapStart - 30 * 60_000;
    const wall = manualClock(0);
    // Only the 1m file (in the full folder the 4-month 5m file wins: replay-folder.test.ts).
    const only1m = mkdtempSync(join(tmpdir(), 'meridian-binance-'));
    symlinkSync(resolve(folder, 'BTC_USDT-1m.json'), join(only1m, 'BTC_USDT-1m.json'));
    const source = await replaySource({
      folder: only1m,
      symbols: ['BTCUSDT', 'LINKUSDT'],
      speed: 60,
      startAt,
      wallClock: wall,
    });
    expect(source.symbols).toEqual(['BTCUSDT']);
    expect(source.venues).toEqual(['binance']);
    expect(source.clock!.now()).toBe(startAt);

    // Backfill (history before the start) = the file's bars.
    const history: Candle[] = [];
    for await (const chunk of source.backfill('binance', 'BTCUSDT', startAt - 120 * 60_000, startAt))
      history.push(...chunk);
    const expected = bars.filter((b) => b.openTime >= startAt - 120 * 60_000 && b.openTime < startAt);
    expect(history.map((c) => [c.openTime, c.open, c.high, c.low, c.close])).toEqual(
      expected.map((c) => [c.openTime, c.open, c.high, c.low, c.close]),
    );

    // Live: play 3 hours of recorded time (30 min before the gap, the 150-minute gap, then more).
    const engine = new MarketEngine({
      symbols: ['BTCUSDT'],
      venues: ['binance'],
      staleMs: 15_000,
      outlierBps: 100,
      notional: 100_000,
      graceMs: 2_000,
      memoryDays: 1,
    });
    const closed: CandleClosed[] = [];
    engine.onCandleClosed((c) => closed.push(c));
    const sink = (e: MarketEvent) => engine.ingest(e);
    let staleInGap = false;
    for (let t = startAt; t <= startAt + 3 * 3_600_000; t += 10_000) {
      source.playUntil(t, sink);
      engine.tick(t);
      if (t === gapStart + 30 * 60_000) staleInGap = engine.snapshot('BTCUSDT')!.venues[0]!.stale;
    }
    expect(staleInGap).toBe(true);
    const minutes = closed.filter((c) => c.venue === 'binance' && c.interval === '1m').map((c) => c.candle);
    const recorded = bars.filter(
      (b) => b.openTime >= startAt && b.openTime + 60_000 + 2_000 <= startAt + 3 * 3_600_000,
    );
    expect(minutes.map((c) => c.openTime)).toEqual(recorded.map((b) => b.openTime));
    for (let i = 0; i < recorded.length; i++) {
      const a = minutes[i]!;
      const b = recorded[i]!;
      expect([a.open, a.high, a.low, a.close]).toEqual([b.open, b.high, b.low, b.close]);
      expect(a.volume).toBeCloseTo(b.volume, 9);
    }
    // Nothing was invented inside the gap.
    expect(minutes.some((c) => c.openTime >= gapStart && c.openTime < gapStart + 150 * 60_000)).toBe(false);
  });
});

describe('replay top:N (MERIDIAN_SYMBOLS=top:N)', () => {
  const start = Date.UTC(2021, 0, 1);
  /** A freqtrade JSON file of `hours` hourly bars at `price` with `volume` base units each. */
  const write = (folder: string, name: string, price: number, volume: number, hours = 48) =>
    writeFileSync(
      join(folder, name),
      JSON.stringify(
        Array.from({ length: hours }, (_, i) => [
          start + i * 3_600_000,
          price,
          price * 1.01,
          price * 0.99,
          price,
          volume,
        ]),
      ),
    );
  const folder = mkdtempSync(join(tmpdir(), 'meridian-top-'));
  write(folder, 'BTC_USDT-1h.json', 50_000, 10); // 5e5 USD an hour
  write(folder, 'ETH_USDT-1h.json', 3_000, 100); // 3e5
  write(folder, 'LINK_USDT-1h.json', 20, 1_000, 24); // 2e4, over a shorter recording
  write(folder, 'SOL_USDT_USDT-1h-futures.json', 100, 100); // 1e4, futures only
  write(folder, 'USDC_USDT-1h.json', 1, 1e9); // a stablecoin pair: not ranked
  write(folder, 'ETH_BTC-1h.json', 0.06, 1e6); // not dollar-quoted: not ranked
  const empty = mkdtempSync(join(tmpdir(), 'meridian-top-empty-'));
  write(empty, 'ETH_BTC-1h.json', 0.06, 1e6);
  afterAll(() => {
    for (const dir of [folder, empty]) rmSync(dir, { recursive: true, force: true });
  });

  it('plays the N dollar-quoted symbols with the largest recorded quote volume per day', async () => {
    const two = await replaySource({ folder, top: 2, speed: 60 });
    expect(two.symbols).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(two.missing).toEqual([]);
    expect(two.series.get('BTCUSDT')!.bars).toHaveLength(48);
    const all = await replaySource({ folder, top: 10, speed: 60 });
    expect(all.symbols).toEqual(['BTCUSDT', 'ETHUSDT', 'LINKUSDT', 'SOLUSDT']);
  });

  it('under strict, refuses a folder with fewer than N; and a folder with none', async () => {
    await expect(replaySource({ folder, top: 10, speed: 60, strict: true })).rejects.toThrow(
      /top:10 asked, but .* has candle files for 4 dollar-quoted symbols/,
    );
    await expect(replaySource({ folder: empty, top: 5, speed: 60 })).rejects.toThrow(
      /top:5 found no dollar-quoted candle files/,
    );
  });
});
