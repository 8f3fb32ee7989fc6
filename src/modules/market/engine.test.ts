import { describe, expect, it } from 'vitest';
import { MarketEngine } from './engine.ts';
import { MEMORY_DAYS } from './history.ts';
import type { MarketEvent } from './ports.ts';
import type { CandleClosed } from './types.ts';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);

function engine(onGap?: (venue: string, symbol: string) => void) {
  const e = new MarketEngine({
    symbols: ['BTCUSDT'],
    venues: ['binance', 'okx'],
    staleMs: 10_000,
    outlierBps: 100,
    notional: 1_000,
    graceMs: 2_000,
    memoryDays: 1,
    onGap,
  });
  const closed: CandleClosed[] = [];
  e.onCandleClosed((c) => closed.push(c));
  return { e, closed };
}

const trade = (
  venue: string,
  t: number,
  price: number,
  size: number,
  side: 'buy' | 'sell' = 'buy',
): MarketEvent => ({
  kind: 'trade',
  venue,
  symbol: 'BTCUSDT',
  price,
  size,
  side,
  exchangeTime: t,
  receiveTime: t,
});
const book = (venue: string, t: number, sequence: number, mid: number): MarketEvent => ({
  kind: 'book_snapshot',
  venue,
  symbol: 'BTCUSDT',
  sequence,
  bids: [
    [mid - 1, 2],
    [mid - 2, 3],
  ],
  asks: [
    [mid + 1, 2],
    [mid + 2, 3],
  ],
  exchangeTime: t,
  receiveTime: t,
});

describe('MarketEngine', () => {
  it('walks another notional on the book of the last tick, not on books moved since', () => {
    const { e } = engine();
    e.ingest(book('binance', T0, 1, 100));
    e.ingest(book('okx', T0, 1, 100));
    e.tick(T0 + 100);
    const atTick = e.slippageFor('BTCUSDT', 250);
    expect(atTick.buyBps).toBeGreaterThan(0);
    // Both books move 10 down after the tick: the snapshot's mid (100) still holds until the next tick,
    // and so must the walks measured against it.
    for (const venue of ['binance', 'okx'])
      e.ingest({
        kind: 'book_delta',
        venue,
        symbol: 'BTCUSDT',
        sequence: 2,
        bids: [
          [99, 0],
          [98, 0],
          [89, 2],
        ],
        asks: [
          [101, 0],
          [102, 0],
          [91, 2],
        ],
        exchangeTime: T0 + 150,
        receiveTime: T0 + 150,
      });
    expect(e.slippageFor('BTCUSDT', 250)).toEqual(atTick);
    expect(e.consolidatedBook('BTCUSDT')?.included[0]?.askPx[0]).toBe(101);
    e.tick(T0 + 200);
    expect(e.consolidatedBook('BTCUSDT')?.included[0]?.askPx[0]).toBe(91);
  });

  it('builds 1m candles per venue from trades, merges them, and rolls up to 5m', () => {
    const { e, closed } = engine();
    for (let m = 0; m < 5; m++) {
      const t = T0 + m * 60_000;
      e.ingest(trade('binance', t + 1_000, 100 + m, 1));
      e.ingest(trade('binance', t + 30_000, 110 + m, 3, 'sell'));
      e.ingest(trade('binance', t + 50_000, 90 + m, 1));
      e.ingest(trade('okx', t + 20_000, 102 + m, 1));
    }
    // Minute 4 closes only after its end plus the grace period.
    e.tick(T0 + 5 * 60_000 + 1_999);
    expect(closed.filter((c) => c.interval === '5m')).toHaveLength(0);
    e.tick(T0 + 5 * 60_000 + 2_000);
    const binance = closed.filter((c) => c.venue === 'binance' && c.interval === '1m');
    expect(binance).toHaveLength(5);
    expect(binance[0]!.candle).toEqual({
      openTime: T0,
      open: 100,
      high: 110,
      low: 90,
      close: 90,
      volume: 5,
      quoteVolume: 100 + 330 + 90,
    });
    const merged = closed.filter((c) => c.venue === 'merged' && c.interval === '1m');
    expect(merged).toHaveLength(5);
    // Volume-weighted merge: binance 5 units, okx 1 unit.
    expect(merged[0]!.candle.open).toBeCloseTo((5 * 100 + 1 * 102) / 6, 10);
    expect(merged[0]!.candle.volume).toBe(6);
    const fives = closed.filter((c) => c.interval === '5m');
    expect(fives.map((c) => c.venue).sort()).toEqual(['binance', 'merged', 'okx']);
    const b5 = fives.find((c) => c.venue === 'binance')!.candle;
    expect(b5).toMatchObject({ openTime: T0, open: 100, high: 114, low: 90, close: 94, volume: 25 });
    expect(e.recentCandles('BTCUSDT', '1m', 10)).toHaveLength(5);
    expect(e.recentCandles('BTCUSDT', '5m', 10)).toHaveLength(1);
    // Trade flow over the 5 minutes before T0+5m+2s: buys 15 (binance 2/min + okx 1/min) minus the buy at
    // T0+1s which has left the window = 14, sells 15 → (14 − 15) / 29.
    expect(e.snapshot('BTCUSDT')!.tradeImbalance5m).toBeCloseTo(-1 / 29, 10);
  });

  it('detects a sequence gap, asks for a resync and leaves the venue out until a snapshot arrives', () => {
    const gaps: string[] = [];
    const { e } = engine((venue) => gaps.push(venue));
    e.ingest(book('binance', T0, 1, 100));
    e.ingest(book('okx', T0, 1, 100));
    e.ingest({
      kind: 'book_delta',
      venue: 'binance',
      symbol: 'BTCUSDT',
      sequence: 2,
      bids: [[99.5, 7]],
      asks: [],
      exchangeTime: T0,
      receiveTime: T0,
    });
    e.tick(T0);
    expect(e.snapshot('BTCUSDT')!.bestBid).toBe(99.5);
    e.ingest({
      kind: 'book_delta',
      venue: 'binance',
      symbol: 'BTCUSDT',
      sequence: 4,
      bids: [[99.8, 1]],
      asks: [],
      exchangeTime: T0,
      receiveTime: T0,
    });
    expect(gaps).toEqual(['binance']);
    e.tick(T0 + 100);
    let s = e.snapshot('BTCUSDT')!;
    expect(s.venues.find((v) => v.venue === 'binance')).toMatchObject({ stale: true, weight: 0 });
    expect(s.bestBid).toBe(99); // okx only; the gapped delta was not applied
    e.ingest(book('binance', T0 + 200, 10, 101));
    e.tick(T0 + 200);
    s = e.snapshot('BTCUSDT')!;
    expect(s.venues.every((v) => !v.stale)).toBe(true);
    expect(s.bestBid).toBe(100);
  });

  it('flags a silent venue stale, and reports funding and basis', () => {
    const { e } = engine();
    e.ingest(book('binance', T0, 1, 100));
    e.ingest(book('okx', T0 + 9_000, 1, 102));
    e.ingest({
      kind: 'funding',
      venue: 'binance',
      symbol: 'BTCUSDT',
      rate: 0.0001,
      markPrice: 101.101,
      exchangeTime: T0,
      receiveTime: T0,
    });
    e.tick(T0 + 10_500);
    const s = e.snapshot('BTCUSDT')!;
    expect(s.venues.map((v) => [v.venue, v.stale])).toEqual([
      ['binance', true],
      ['okx', false],
    ]);
    expect(s.mid).toBe(102);
    expect(s.fundingRate).toBe(0.0001);
    expect(s.basisBps).toBeCloseTo((101.101 / 102 - 1) * 10_000, 8);
  });
});

describe('memory bound per symbol', () => {
  it('holds at most the working window however much history is loaded or built live: ≤ 720 KB a symbol', () => {
    const e = new MarketEngine({
      symbols: ['BTCUSDT'],
      venues: ['binance', 'coinbase', 'kraken', 'okx'],
      staleMs: 10_000,
      outlierBps: 100,
      notional: 1_000,
      graceMs: 2_000,
      memoryDays: MEMORY_DAYS,
    });
    const minute = (t: number, i: number) => {
      const p = 100 + Math.sin(i / 50);
      return { openTime: t, open: p, high: p + 0.5, low: p - 0.5, close: p, volume: 1, quoteVolume: p };
    };
    // Thirty days loaded at once (as from storage), then two more days built bar by bar through the feed.
    const start = Date.UTC(2026, 0, 1);
    const loaded = Array.from({ length: 30 * 1440 }, (_, i) => minute(start + i * 60_000, i));
    e.loadHistory('BTCUSDT', loaded);
    for (const venue of ['binance', 'coinbase', 'kraken', 'okx'])
      e.loadVenueMinutes('BTCUSDT', venue, loaded);
    const bound = e.memoryBytes('BTCUSDT')!.max;
    expect(bound).toBeLessThanOrEqual(720 * 1024);
    expect(e.memoryBytes('BTCUSDT')!.held).toBeLessThanOrEqual(bound);
    const series = e.memorySeries('BTCUSDT', '1m')!;
    // The newest window is what is kept: the model's span and the 24 h statistics are all there.
    expect(series.length).toBeGreaterThanOrEqual(3 * 1440 + 120);
    expect(series.last!.openTime).toBe(loaded.at(-1)!.openTime);
    let t = loaded.at(-1)!.openTime + 60_000;
    for (let i = 0; i < 2 * 1440; i++, t += 60_000) {
      e.ingest(trade('binance', t + 1_000, 100, 1));
      e.tick(t + 60_000 + 2_000);
    }
    expect(e.memoryBytes('BTCUSDT')!.held).toBeLessThanOrEqual(bound);
    expect(series.last!.openTime).toBe(t - 60_000);
    expect(e.memorySeries('BTCUSDT', '1d')!.length).toBeLessThanOrEqual(60);
  });
});
