import type { DepthBands } from './types.ts';

/** What consolidation needs of one venue's book: sorted price and size arrays (bids desc, asks asc). */
export interface BookLike {
  bidPx: readonly number[];
  bidSz: readonly number[];
  askPx: readonly number[];
  askSz: readonly number[];
}

export interface VenueInput {
  venue: string;
  /** Undefined when the venue has no usable book (never received, or waiting for a resync). */
  book: BookLike | undefined;
  /** Last update (ms), book or trade. */
  updatedAt: number | null;
  /** 24 h quote volume, the merge weight. */
  quoteVolume24h: number;
}

export interface ConsolidationOptions {
  now: number;
  /** A venue without an update for longer than this is stale. */
  staleMs: number;
  /** A venue whose mid is further than this from the median of fresh venues' mids is an outlier. */
  outlierBps: number;
  /** Notional (quote currency) of the slippage walk. */
  notional: number;
}

export interface VenueResult {
  venue: string;
  price: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  spreadBps: number | null;
  weight: number;
  stale: boolean;
  outlier: boolean;
  updatedAt: number | null;
}

export interface Consolidated {
  mid: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  spreadBps: number | null;
  depth: DepthBands;
  bookImbalance: number | null;
  slippage: { notional: number; buyBps: number | null; sellBps: number | null };
  venues: VenueResult[];
  /** Included venues' books, for further walks (other notionals). */
  included: BookLike[];
}

export const BANDS = [
  ['0.5%', 0.005],
  ['1%', 0.01],
  ['2%', 0.02],
] as const;

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The merge across venues. Rules (docs/market.md):
 * - stale: no usable book, or no update within `staleMs`;
 * - outlier: with at least three fresh venues, a mid more than `outlierBps` from their median;
 * - weights: 24 h quote volume of the included venues (equal when none has volume); merged mid = Σ w·mid;
 * - consolidated book = the included venues' levels; depth and slippage measured against the merged mid.
 */
export function consolidate(inputs: readonly VenueInput[], options: ConsolidationOptions): Consolidated {
  const venues: VenueResult[] = [];
  const mids: number[] = [];
  for (const v of inputs) {
    const b = v.book;
    const bid = b?.bidPx[0];
    const ask = b?.askPx[0];
    const mid = bid !== undefined && ask !== undefined ? (bid + ask) / 2 : null;
    const stale = mid === null || v.updatedAt === null || options.now - v.updatedAt > options.staleMs;
    venues.push({
      venue: v.venue,
      price: mid,
      bestBid: bid ?? null,
      bestAsk: ask ?? null,
      spreadBps: mid !== null ? ((ask! - bid!) / mid) * 10_000 : null,
      weight: 0,
      stale,
      outlier: false,
      updatedAt: v.updatedAt,
    });
    if (!stale) mids.push(mid!);
  }
  if (mids.length >= 3) {
    const med = median(mids);
    for (const r of venues) {
      if (!r.stale && Math.abs(r.price! / med - 1) * 10_000 > options.outlierBps) r.outlier = true;
    }
  }
  const included: BookLike[] = [];
  let volumeSum = 0;
  const idx: number[] = [];
  venues.forEach((r, i) => {
    if (r.stale || r.outlier) return;
    idx.push(i);
    included.push(inputs[i]!.book!);
    volumeSum += Math.max(0, inputs[i]!.quoteVolume24h);
  });
  let mid: number | null = null;
  if (idx.length) {
    mid = 0;
    for (const i of idx) {
      const w = volumeSum > 0 ? Math.max(0, inputs[i]!.quoteVolume24h) / volumeSum : 1 / idx.length;
      venues[i]!.weight = w;
      mid += w * venues[i]!.price!;
    }
  }
  let bestBid: number | null = null;
  let bestAsk: number | null = null;
  for (const b of included) {
    const bb = b.bidPx[0];
    const ba = b.askPx[0];
    if (bb !== undefined && (bestBid === null || bb > bestBid)) bestBid = bb;
    if (ba !== undefined && (bestAsk === null || ba < bestAsk)) bestAsk = ba;
  }
  const depth = depthBands(included, mid);
  const d1 = depth['1%'];
  const total1 = d1.bid + d1.ask;
  return {
    mid,
    bestBid,
    bestAsk,
    spreadBps:
      mid !== null && bestBid !== null && bestAsk !== null ? ((bestAsk - bestBid) / mid) * 10_000 : null,
    depth,
    bookImbalance: total1 > 0 ? (d1.bid - d1.ask) / total1 : null,
    slippage: slippage(included, mid, options.notional),
    venues,
    included,
  };
}

/** Quote-currency depth of the books within ± each band of `mid`. */
export function depthBands(books: readonly BookLike[], mid: number | null): DepthBands {
  const out: DepthBands = { '0.5%': { bid: 0, ask: 0 }, '1%': { bid: 0, ask: 0 }, '2%': { bid: 0, ask: 0 } };
  if (mid === null) return out;
  for (const b of books) {
    for (let i = 0; i < b.bidPx.length; i++) {
      const p = b.bidPx[i]!;
      const dist = 1 - p / mid;
      if (dist > 0.02 + 1e-12) break;
      const n = p * b.bidSz[i]!;
      for (const [name, band] of BANDS) if (dist <= band + 1e-12) out[name].bid += n;
    }
    for (let i = 0; i < b.askPx.length; i++) {
      const p = b.askPx[i]!;
      const dist = p / mid - 1;
      if (dist > 0.02 + 1e-12) break;
      const n = p * b.askSz[i]!;
      for (const [name, band] of BANDS) if (dist <= band + 1e-12) out[name].ask += n;
    }
  }
  return out;
}

/**
 * Slippage in bps of a market buy and sell of `notional` (quote) walking the consolidated book, measured
 * from `mid` to the average fill price; null when the book holds less than `notional` on that side.
 */
export function slippage(
  books: readonly BookLike[],
  mid: number | null,
  notional: number,
): { notional: number; buyBps: number | null; sellBps: number | null } {
  if (mid === null || books.length === 0) return { notional, buyBps: null, sellBps: null };
  const walk = (side: 'bid' | 'ask'): number | null => {
    const levels: Array<[number, number]> = [];
    for (const b of books) {
      const px = side === 'ask' ? b.askPx : b.bidPx;
      const sz = side === 'ask' ? b.askSz : b.bidSz;
      for (let i = 0; i < px.length; i++) levels.push([px[i]!, sz[i]!]);
    }
    levels.sort(side === 'ask' ? (a, b) => a[0] - b[0] : (a, b) => b[0] - a[0]);
    let remaining = notional;
    let qty = 0;
    for (const [p, s] of levels) {
      const take = Math.min(remaining, p * s);
      qty += take / p;
      remaining -= take;
      if (remaining <= 1e-9 * notional) {
        const avg = notional / qty;
        return side === 'ask' ? (avg / mid - 1) * 10_000 : (1 - avg / mid) * 10_000;
      }
    }
    return null;
  };
  return { notional, buyBps: walk('ask'), sellBps: walk('bid') };
}
