import { describe, expect, it } from 'vitest';
import { type BookLike, consolidate, flattenBook, slippage } from './consolidate.ts';

const book = (bids: Array<[number, number]>, asks: Array<[number, number]>): BookLike => ({
  bidPx: bids.map((l) => l[0]),
  bidSz: bids.map((l) => l[1]),
  askPx: asks.map((l) => l[0]),
  askSz: asks.map((l) => l[1]),
});

const now = 1_000_000;
// Computed by hand in the comments; numbers in quote currency (USD).
const fixture = [
  {
    venue: 'binance', // mid 100, weight 3000 / 4000 = 0.75
    book: book(
      [
        [99.9, 10], // 999
        [99.5, 20], // 1990 (exactly −0.5 %: inside every band)
        [98, 50], // 4900 (exactly −2 %)
      ],
      [
        [100.1, 10], // 1001
        [100.5, 20], // 2010
        [102, 50], // 5100
      ],
    ),
    updatedAt: now - 1_000,
    quoteVolume24h: 3000,
  },
  {
    venue: 'coinbase', // mid 100, weight 0.25
    book: book(
      [
        [99.8, 5], // 499
        [99, 10], // 990 (−1 %)
      ],
      [
        [100.2, 5], // 501
        [101, 10], // 1010 (+1 %)
      ],
    ),
    updatedAt: now - 2_000,
    quoteVolume24h: 1000,
  },
  {
    venue: 'kraken', // stale: silent for 20 s with a 10 s limit
    book: book([[99.95, 1000]], [[100.05, 1000]]),
    updatedAt: now - 20_000,
    quoteVolume24h: 5000,
  },
  {
    venue: 'okx', // outlier: mid 103 vs median 100 of fresh venues = 300 bps > 100 bps
    book: book([[102.9, 1000]], [[103.1, 1000]]),
    updatedAt: now - 500,
    quoteVolume24h: 5000,
  },
];

describe('consolidate (hand-computed fixture)', () => {
  const result = consolidate(fixture, { now, staleMs: 10_000, outlierBps: 100, notional: 3000 });

  it('excludes and flags the stale and the outlier venue; weights by 24 h quote volume', () => {
    expect(result.venues.map((v) => [v.venue, v.stale, v.outlier, v.weight])).toEqual([
      ['binance', false, false, 0.75],
      ['coinbase', false, false, 0.25],
      ['kraken', true, false, 0],
      ['okx', false, true, 0],
    ]);
    expect(result.mid).toBe(100);
    expect(result.bestBid).toBe(99.9);
    expect(result.bestAsk).toBe(100.1);
    expect(result.spreadBps).toBeCloseTo(20, 9);
    expect(result.venues[3]!.price).toBe(103);
  });

  it('sums depth within ±0.5 %, ±1 %, ±2 % of the merged mid to the cent', () => {
    const cents = (x: number) => Math.round(x * 100) / 100;
    expect(cents(result.depth['0.5%'].bid)).toBe(3488); // 999 + 1990 + 499
    expect(cents(result.depth['0.5%'].ask)).toBe(3512); // 1001 + 2010 + 501
    expect(cents(result.depth['1%'].bid)).toBe(4478); // + 990
    expect(cents(result.depth['1%'].ask)).toBe(4522); // + 1010
    expect(cents(result.depth['2%'].bid)).toBe(9378); // + 4900
    expect(cents(result.depth['2%'].ask)).toBe(9622); // + 5100
    expect(result.bookImbalance).toBeCloseTo(-44 / 9000, 12);
  });

  it('walks the consolidated book for slippage', () => {
    // Buy 3000: 1001 @100.1 (10) + 501 @100.2 (5) + 1498 @100.5 (14.905…) → avg 100.316087… → 31.6087 bps
    expect(result.slippage.buyBps).toBeCloseTo(31.608717351521154, 8);
    // Sell 3000: 999 @99.9 (10) + 499 @99.8 (5) + 1502 @99.5 (15.095…) → avg 99.682752… → 31.7248 bps
    expect(result.slippage.sellBps).toBeCloseTo(31.72482885289707, 8);
  });

  it('answers null slippage when the book is too thin, and nothing without fresh venues', () => {
    const thin = consolidate(fixture, { now, staleMs: 10_000, outlierBps: 100, notional: 1_000_000 });
    expect(thin.slippage).toEqual({ notional: 1_000_000, buyBps: null, sellBps: null });
    const none = consolidate(fixture, {
      now: now + 60_000,
      staleMs: 10_000,
      outlierBps: 100,
      notional: 3000,
    });
    expect(none.mid).toBeNull();
    expect(none.venues.every((v) => v.stale)).toBe(true);
    expect(none.bookImbalance).toBeNull();
  });

  it('does not call outliers with fewer than three fresh venues; equal weights without volume', () => {
    const two = consolidate(
      [
        { ...fixture[0]!, quoteVolume24h: 0 },
        { ...fixture[3]!, quoteVolume24h: 0 },
      ],
      { now, staleMs: 10_000, outlierBps: 100, notional: 3000 },
    );
    expect(two.venues.map((v) => [v.outlier, v.weight])).toEqual([
      [false, 0.5],
      [false, 0.5],
    ]);
    expect(two.mid).toBeCloseTo(101.5, 12);
  });
});

describe('flattenBook (what followers walk)', () => {
  // A deterministic generator: books on overlapping grids so prices tie across venues.
  let seed = 7;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const randomBook = (step: number, levels: number): BookLike => {
    const bids: Array<[number, number]> = [];
    const asks: Array<[number, number]> = [];
    for (let i = 0; i < levels; i++) {
      bids.push([Number((100 - step * (i + 1)).toFixed(4)), Number((0.1 + rand() * 30).toFixed(4))]);
      asks.push([Number((100 + step * (i + 1)).toFixed(4)), Number((0.1 + rand() * 30).toFixed(4))]);
    }
    return book(bids, asks);
  };

  it('gives bit-identical slippage to the k-way walk over the venues, ties included', () => {
    const books = [randomBook(0.01, 40), randomBook(0.02, 30), randomBook(0.01, 25), randomBook(0.05, 10)];
    const flat = flattenBook(books, 1_000);
    expect(flat.askPx.length).toBe(105);
    for (const n of [1, 50, 999.5, 5_000, 20_000, 60_000, 100_000, 1e6, 1e9]) {
      const a = slippage(books, 100.003, n);
      const b = slippage([flat], 100.003, n);
      expect(Object.is(a.buyBps, b.buyBps) && Object.is(a.sellBps, b.sellBps)).toBe(true);
    }
    expect(slippage([flat], 100, 1e9)).toEqual({ notional: 1e9, buyBps: null, sellBps: null });
  });

  it('keeps at most maxLevels per side, best first', () => {
    const books = [randomBook(0.01, 40), randomBook(0.02, 30)];
    const flat = flattenBook(books, 10);
    expect(flat.bidPx.length).toBe(10);
    expect(flat.askPx.length).toBe(10);
    expect(flat.askPx).toEqual([...flat.askPx].sort((x, y) => x - y));
    expect(flat.bidPx[0]).toBe(99.99);
  });
});
