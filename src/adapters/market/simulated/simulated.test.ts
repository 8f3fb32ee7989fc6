import { describe, expect, it, vi } from 'vitest';
import { isKeptLevel, keptDistances, simulatedSource } from './index.ts';
import { PriceModel } from './model.ts';
import { profileOf } from './universe.ts';
import type { MarketEvent } from '../../../modules/market/index.ts';
import { createMemoryCandleRepository } from '../../../modules/market/repository.ts';
import { createMarketService } from '../../../modules/market/service.ts';
import { DEFAULT_SYMBOLS } from '../../../modules/identifiers/index.ts';
import { manualClock } from '../../../shared/clock.ts';

const T = Date.UTC(2026, 2, 10, 12, 0);
const DAY = 86_400_000;

describe('simulated market', () => {
  it('steps to exactly the book levels it keeps, in order, on both sides of the touch', () => {
    for (const touch of [0, 1, 2, 3, 15, 16, 17, 1_000_003, 4_321_987, 98_765_432]) {
      for (const dir of [1, -1] as const) {
        const byTest = Array.from({ length: 300 }, (_, j) => j).filter((j) =>
          isKeptLevel(j, touch - j * dir),
        );
        expect(keptDistances(touch, dir)).toEqual(byTest);
      }
    }
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const a = new PriceModel(42, DEFAULT_SYMBOLS, profileOf).venueCandles('BTCUSDT', 'kraken', T - DAY, T);
    const b = new PriceModel(42, DEFAULT_SYMBOLS, profileOf).venueCandles('BTCUSDT', 'kraken', T - DAY, T);
    const c = new PriceModel(43, DEFAULT_SYMBOLS, profileOf).venueCandles('BTCUSDT', 'kraken', T - DAY, T);
    expect(a).toHaveLength(1440);
    expect(a).toEqual(b);
    expect(a[100]!.close).not.toBe(c[100]!.close);
  });

  it('produces plausible, correlated prices', () => {
    const model = new PriceModel(42, DEFAULT_SYMBOLS, profileOf);
    const daily = (symbol: string) =>
      Array.from({ length: 90 }, (_, d) => model.priceAtMinute(symbol, T - (90 - d) * DAY));
    const btc = daily('BTCUSDT');
    const eth = daily('ETHUSDT');
    for (const p of btc) {
      expect(p).toBeGreaterThan(20_000);
      expect(p).toBeLessThan(250_000);
    }
    const r = (xs: number[]) => xs.slice(1).map((x, i) => Math.log(x / xs[i]!));
    const rb = r(btc);
    const re = r(eth);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
    const corr = mean(rb.map((x, i) => (x - mean(rb)) * (re[i]! - mean(re)))) / (sd(rb) * sd(re));
    expect(sd(rb)).toBeGreaterThan(0.01); // daily BTC volatility of a few percent
    expect(sd(rb)).toBeLessThan(0.08);
    expect(corr).toBeGreaterThan(0.4);
    // One-minute bars are well formed.
    for (const bar of model.venueCandles('SOLUSDT', 'binance', T - 3_600_000, T)) {
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
      expect(bar.volume).toBeGreaterThan(0);
    }
  });

  it('emits books on all four venues, trades with both aggressor sides, and funding for perpetual venues', () => {
    const source = simulatedSource({ symbols: ['BTCUSDT'], seed: 1, clock: { now: () => T } });
    const events: MarketEvent[] = [];
    for (let i = 0; i < 40; i++) source.tickAt(T + i * 250, (e) => events.push(e));
    const venues = new Set(events.filter((e) => e.kind === 'book_snapshot').map((e) => e.venue));
    expect([...venues].sort()).toEqual(['binance', 'coinbase', 'kraken', 'okx']);
    const sides = new Set(events.filter((e) => e.kind === 'trade').map((e) => (e as { side: string }).side));
    expect([...sides].sort()).toEqual(['buy', 'sell']);
    const funding = events.filter((e) => e.kind === 'funding');
    expect(new Set(funding.map((e) => e.venue))).toEqual(new Set(['binance', 'okx', 'kraken']));
    // Deltas follow their snapshot's sequence one by one.
    const seq = events.filter(
      (e) => e.venue === 'binance' && (e.kind === 'book_delta' || e.kind === 'book_snapshot'),
    );
    const sequences = seq.map((e) => (e as { sequence: number }).sequence);
    expect(sequences).toEqual(sequences.map((_, i) => sequences[0]! + i));
  });

  it('ticks each symbol on its own phase of the interval, so no timer callback moves every book', async () => {
    vi.useFakeTimers();
    try {
      const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'];
      const clock = manualClock(T);
      const source = simulatedSource({ symbols, seed: 3, clock, tickMs: 200 });
      const seen: Array<{ at: number; symbol: string }> = [];
      await source.start((e) => seen.push({ at: Date.now(), symbol: e.symbol }));
      expect(new Set(seen.map((e) => e.symbol))).toEqual(new Set(symbols)); // all at start
      const start = Date.now();
      seen.length = 0;
      await vi.advanceTimersByTimeAsync(400);
      const firstAt = symbols.map((s) => seen.find((e) => e.symbol === s)!.at - start);
      expect(firstAt).toEqual([200, 250, 300, 350]); // one period after start, each on its phase
      // Every callback carries one symbol's events only, and each symbol ticks every 200 ms.
      const symbolsAt = new Map<number, Set<string>>();
      for (const e of seen) symbolsAt.set(e.at, (symbolsAt.get(e.at) ?? new Set()).add(e.symbol));
      for (const at of symbolsAt.values()) expect(at.size).toBe(1);
      expect(seen.filter((e) => e.symbol === 'SOLUSDT' && e.at - start === 300).length).toBeGreaterThan(0);
      await source.stop();
      seen.length = 0;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(seen).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('computes history on read: nothing of the past is stored, a restart has no gap, a stored live bar wins', async () => {
    const repo = createMemoryCandleRepository();
    const clock = manualClock(T);
    const make = () =>
      createMarketService({
        source: simulatedSource({ symbols: ['BTCUSDT', 'ETHUSDT'], seed: 5, clock }),
        repository: repo,
        clock,
        symbols: ['BTCUSDT', 'ETHUSDT'],
        historyDays: 5,
      });
    const first = make();
    await first.start();
    await first.windowsLoaded();
    await first.stop();
    expect(repo.size()).toBe(0);
    clock.advance(3 * 3_600_000 + 17_000); // three hours of downtime
    const now = clock.now();
    // A bar built live by an earlier run (and stored) is what history shows for its minute.
    const live = {
      openTime: T - DAY + 5 * 60_000,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 3,
      quoteVolume: 4,
    };
    await repo.upsert([{ ...live, symbol: 'BTCUSDT', venue: 'merged', interval: '1m' }]);
    const second = make();
    await second.start();
    await second.windowsLoaded();
    const minutes = [];
    for (let from = T - 7 * DAY; ; ) {
      const page = await second.candlesBetween({
        symbol: 'BTCUSDT',
        interval: '1m',
        fromMs: from,
        toMs: now,
        limit: 1000,
      });
      minutes.push(...page);
      if (page.length < 1000) break;
      from = page.at(-1)!.openTime + 60_000;
    }
    const firstOffered = Math.floor((now - 5 * DAY) / DAY) * DAY;
    expect(minutes[0]!.openTime).toBe(firstOffered);
    const lastClosed = Math.floor(now / 60_000) * 60_000 - 60_000;
    expect(minutes.filter((c) => c.openTime <= lastClosed).map((c) => c.openTime)).toEqual(
      Array.from({ length: (lastClosed - firstOffered) / 60_000 + 1 }, (_, i) => firstOffered + i * 60_000),
    );
    expect(minutes.find((c) => c.openTime === live.openTime)).toEqual(live);
    // The same history in coarser bars: every hour of the offered span, the stored bar inside its hour.
    const hours = await second.candlesBetween({
      symbol: 'ETHUSDT',
      interval: '1h',
      fromMs: 0,
      toMs: now,
      limit: 1000,
    });
    expect(hours.map((c) => c.openTime)).toEqual(
      Array.from(
        { length: (Math.floor(now / 3_600_000) * 3_600_000 - firstOffered) / 3_600_000 + 1 },
        (_, i) => firstOffered + i * 3_600_000,
      ),
    );
    await second.stop();
    // Only live-built bars were stored by the second run (none closed on a clock that did not move).
    expect(repo.size()).toBe(1);
  });
});
