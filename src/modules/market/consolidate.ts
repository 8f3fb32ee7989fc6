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
function depthBands(books: readonly BookLike[], mid: number | null): DepthBands {
  const out: DepthBands = { '0.5%': { bid: 0, ask: 0 }, '1%': { bid: 0, ask: 0 }, '2%': { bid: 0, ask: 0 } };
  if (mid === null) return out;
  const eps = 1e-12;
  // Distance thresholds as prices, with a hair of tolerance so a level exactly on a band edge is inside.
  const b05 = mid * (1 - 0.005 - eps);
  const b1 = mid * (1 - 0.01 - eps);
  const b2 = mid * (1 - 0.02 - eps);
  const a05 = mid * (1 + 0.005 + eps);
  const a1 = mid * (1 + 0.01 + eps);
  const a2 = mid * (1 + 0.02 + eps);
  let bid05 = 0;
  let bid1 = 0;
  let bid2 = 0;
  let ask05 = 0;
  let ask1 = 0;
  let ask2 = 0;
  for (const b of books) {
    const bp = b.bidPx;
    const bs = b.bidSz;
    for (let i = 0; i < bp.length; i++) {
      const p = bp[i]!;
      if (p < b2) break;
      const n = p * bs[i]!;
      bid2 += n;
      if (p >= b1) bid1 += n;
      if (p >= b05) bid05 += n;
    }
    const ap = b.askPx;
    const as = b.askSz;
    for (let i = 0; i < ap.length; i++) {
      const p = ap[i]!;
      if (p > a2) break;
      const n = p * as[i]!;
      ask2 += n;
      if (p <= a1) ask1 += n;
      if (p <= a05) ask05 += n;
    }
  }
  out['0.5%'] = { bid: bid05, ask: ask05 };
  out['1%'] = { bid: bid1, ask: ask1 };
  out['2%'] = { bid: bid2, ask: ask2 };
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
  // A k-way merge over the venues' sorted sides (no copying or sorting): best price first.
  const walk = (side: 'bid' | 'ask'): number | null => {
    const ptr = new Array<number>(books.length).fill(0);
    let remaining = notional;
    let qty = 0;
    for (;;) {
      let best = -1;
      let bestPx = 0;
      for (let b = 0; b < books.length; b++) {
        const px = side === 'ask' ? books[b]!.askPx : books[b]!.bidPx;
        const p = px[ptr[b]!];
        if (p === undefined) continue;
        if (best < 0 || (side === 'ask' ? p < bestPx : p > bestPx)) {
          best = b;
          bestPx = p;
        }
      }
      if (best < 0) return null;
      const sz = side === 'ask' ? books[best]!.askSz : books[best]!.bidSz;
      const take = Math.min(remaining, bestPx * sz[ptr[best]!]!);
      ptr[best]!++;
      qty += take / bestPx;
      remaining -= take;
      if (remaining <= 1e-9 * notional) {
        const avg = notional / qty;
        return side === 'ask' ? (avg / mid - 1) * 10_000 : (1 - avg / mid) * 10_000;
      }
    }
  };
  return { notional, buyBps: walk('ask'), sellBps: walk('bid') };
}

/**
 * The consolidated book as one book whose levels are in the exact order `slippage` visits them (best price
 * first; between equal prices the earlier book first, as the k-way merge does), at most `maxLevels` per
 * side. `slippage([flattenBook(books, max)], mid, n)` performs the same arithmetic on the same levels as
 * `slippage(books, mid, n)` — bit-identical — as long as the walk stays within the first `maxLevels`.
 * This is what a follower (an API replica without the market engine) walks for another notional.
 */
export function flattenBook(books: readonly BookLike[], maxLevels: number): BookLike {
  const side = (ask: boolean) => {
    const px: number[] = [];
    const sz: number[] = [];
    const ptr = new Array<number>(books.length).fill(0);
    while (px.length < maxLevels) {
      let best = -1;
      let bestPx = 0;
      for (let b = 0; b < books.length; b++) {
        const p = (ask ? books[b]!.askPx : books[b]!.bidPx)[ptr[b]!];
        if (p === undefined) continue;
        if (best < 0 || (ask ? p < bestPx : p > bestPx)) {
          best = b;
          bestPx = p;
        }
      }
      if (best < 0) break;
      px.push(bestPx);
      sz.push((ask ? books[best]!.askSz : books[best]!.bidSz)[ptr[best]!]!);
      ptr[best]!++;
    }
    return { px, sz };
  };
  const bid = side(false);
  const ask = side(true);
  return { bidPx: bid.px, bidSz: bid.sz, askPx: ask.px, askSz: ask.sz };
}
