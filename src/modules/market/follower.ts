import { isRecord } from '../../shared/bus.ts';
import { INTERVALS, type Interval } from '../identifiers/index.ts';
import type { Candle } from './candles.ts';
import { type BookLike, flattenBook, slippage } from './consolidate.ts';
import type { MarketSnapshot } from './types.ts';

/**
 * What an API replica without the market engine (a follower) needs besides the serialized market-data
 * body, published by the worker with each `market.snapshot` (docs/market.md, "Follower mode"):
 * - `books`: per symbol, the merged mid (exact) and the consolidated book of the included venues as one
 *   book in slippage-walk order, flat `[price, size, price, size, …]` per side, at most
 *   `FOLLOWER_BOOK_LEVELS` levels per side — enough to recompute slippage for any notional the walk
 *   covers with the same `slippage` function, bit-identical to the worker's answer. When every price of
 *   the symbol has at most `dp` decimals (`dp` ≤ 12), prices are sent as integers of 10^-dp, the first of
 *   a side absolute and the others as differences from the previous one (a few digits instead of ten);
 *   decoding computes k / 10^dp, which gives back the very same double. Otherwise `dp` is null, prices raw;
 * - `open`: per symbol, the merged bars in progress per interval, `[openTime, open, high, low, close,
 *   volume, quoteVolume]` — /api/market-history shows the open bar on followers too.
 */
export interface FollowerWire {
  books: Record<string, WireBook>;
  open: Record<string, Partial<Record<Interval, number[]>>>;
}

/**
 * Levels per side and symbol published for followers. The simulated source's consolidated book (four
 * venues of ~37 levels) fits whole; deeper live books are cut here to keep bus messages bounded, and a
 * walk past the cut answers null on followers (docs/market.md, known limits).
 */
const FOLLOWER_BOOK_LEVELS = 250;

/** One symbol's book on the wire (see `FollowerWire`). */
export interface WireBook {
  mid: number | null;
  /** Decimals of the integer price encoding, null when prices are raw. */
  dp: number | null;
  bids: number[];
  asks: number[];
}

const MAX_DP = 12;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];
/**
 * k · 10^-dp as the nearest double. 10^dp is exact for dp ≤ 22 and IEEE division rounds correctly, so this
 * is the very double that parsing the decimal text `${k}e-${dp}` gives, without building a string per price.
 */
const scaled = (k: number, dp: number) => k / POW10[dp]!;

/** The fewest decimals (≤ MAX_DP) that represent every price exactly, null when there is none. */
function decimalsOf(prices: readonly number[]): number | null {
  let dp = 0;
  for (const p of prices) {
    while (dp <= MAX_DP) {
      const k = Math.round(p * POW10[dp]!);
      if (Number.isSafeInteger(k) && scaled(k, dp) === p) break;
      dp++;
    }
    if (dp > MAX_DP) return null;
  }
  // Checked again at the final (largest) precision, which is the one encoded.
  for (const p of prices) if (scaled(Math.round(p * POW10[dp]!), dp) !== p) return null;
  return dp;
}

const encodeSide = (px: readonly number[], sz: readonly number[], dp: number | null) => {
  const out = new Array<number>(px.length * 2);
  let prev = 0;
  for (let i = 0; i < px.length; i++) {
    if (dp === null) out[2 * i] = px[i]!;
    else {
      const k = Math.round(px[i]! * POW10[dp]!);
      out[2 * i] = k - prev;
      prev = k;
    }
    out[2 * i + 1] = sz[i]!;
  }
  return out;
};

export function encodeFollowerBook(
  included: readonly BookLike[],
  mid: number | null,
  maxLevels = FOLLOWER_BOOK_LEVELS,
): WireBook {
  if (mid === null || included.length === 0) return { mid, dp: null, bids: [], asks: [] };
  const b = flattenBook(included, maxLevels);
  const dp = decimalsOf([...b.bidPx, ...b.askPx]);
  return { mid, dp, bids: encodeSide(b.bidPx, b.bidSz, dp), asks: encodeSide(b.askPx, b.askSz, dp) };
}

export const encodeCandle = (c: Candle): number[] => [
  c.openTime,
  c.open,
  c.high,
  c.low,
  c.close,
  c.volume,
  c.quoteVolume,
];

const finiteArray = (x: unknown): x is number[] =>
  Array.isArray(x) && x.every((v) => typeof v === 'number' && Number.isFinite(v));

/** A follower's view of one symbol's book, decoded once per adopted snapshot. */
export interface FollowerBook {
  mid: number | null;
  book: BookLike;
}

const decodeSide = (a: number[], dp: number | null) => {
  const px: number[] = [];
  const sz: number[] = [];
  let k = 0;
  for (let i = 0; i + 1 < a.length; i += 2) {
    if (dp === null) px.push(a[i]!);
    else {
      k += a[i]!;
      px.push(scaled(k, dp));
    }
    sz.push(a[i + 1]!);
  }
  return { px, sz };
};

/** Decodes (and validates) the follower part of a bus message; malformed entries are left out. */
export function decodeFollowerWire(wire: unknown): {
  books: Map<string, FollowerBook>;
  open: Map<string, Map<Interval, Candle>>;
} {
  const books = new Map<string, FollowerBook>();
  const open = new Map<string, Map<Interval, Candle>>();
  const w = (wire ?? {}) as { books?: unknown; open?: unknown };
  if (w.books && typeof w.books === 'object') {
    for (const [symbol, raw] of Object.entries(w.books as Record<string, unknown>)) {
      const r = raw as { mid?: unknown; dp?: unknown; bids?: unknown; asks?: unknown } | null;
      if (!r || !finiteArray(r.bids) || !finiteArray(r.asks)) continue;
      const mid = typeof r.mid === 'number' && Number.isFinite(r.mid) ? r.mid : null;
      const dp =
        typeof r.dp === 'number' && Number.isInteger(r.dp) && r.dp >= 0 && r.dp <= MAX_DP ? r.dp : null;
      const intPrices = (a: number[]) => a.every((v, i) => i % 2 === 1 || Number.isSafeInteger(v));
      if (dp !== null && !(intPrices(r.bids) && intPrices(r.asks))) continue;
      const bid = decodeSide(r.bids, dp);
      const ask = decodeSide(r.asks, dp);
      books.set(symbol, { mid, book: { bidPx: bid.px, bidSz: bid.sz, askPx: ask.px, askSz: ask.sz } });
    }
  }
  if (w.open && typeof w.open === 'object') {
    for (const [symbol, raw] of Object.entries(w.open as Record<string, unknown>)) {
      if (!raw || typeof raw !== 'object') continue;
      const bars = new Map<Interval, Candle>();
      for (const interval of INTERVALS) {
        const a = (raw as Record<string, unknown>)[interval];
        if (!finiteArray(a) || a.length !== 7) continue;
        const [openTime, o, h, l, c, volume, quoteVolume] = a as [
          number,
          number,
          number,
          number,
          number,
          number,
          number,
        ];
        bars.set(interval, { openTime, open: o, high: h, low: l, close: c, volume, quoteVolume });
      }
      open.set(symbol, bars);
    }
  }
  return { books, open };
}

/**
 * The `market.snapshot` bus message: what the worker publishes at most once a second (app/market.ts) — the
 * changed symbols, the market time, the serialized market-data body (all symbols, default notional), the
 * publishing leader's term (followers ignore an older term than the newest they heard of) and the
 * follower part (`FollowerWire`).
 */
export interface MarketSnapshotMessage extends FollowerWire {
  symbols: string[];
  at: number;
  body: string;
  term: number;
  /**
   * MERIDIAN_MARKET_PARTITIONS > 1: the partition whose leader published (the body and books are its symbols';
   * `term` is that partition's lease term). Absent with one partition: the body is every symbol.
   */
  partition?: number;
}

/**
 * Decodes a `market.snapshot` message that came from outside the process (JSON from Redis): undefined
 * unless `symbols`, `at`, `body` and `term` have their types and `books` and `open` are objects; a book
 * or bar that is not well-formed is left out (the same leniency as `decodeFollowerWire`: one bad entry does
 * not lose the snapshot).
 */
export function decodeMarketSnapshotMessage(raw: unknown): MarketSnapshotMessage | undefined {
  if (!isRecord(raw)) return undefined;
  const { symbols, at, body, term, books, open, partition } = raw;
  if (
    partition !== undefined &&
    !(typeof partition === 'number' && Number.isInteger(partition) && partition >= 0)
  )
    return undefined;
  if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === 'string')) return undefined;
  if (typeof at !== 'number' || !Number.isFinite(at) || typeof body !== 'string') return undefined;
  if (typeof term !== 'number' || !isRecord(books) || !isRecord(open)) return undefined;
  const wireBooks: FollowerWire['books'] = {};
  for (const [symbol, b] of Object.entries(books)) {
    if (!isRecord(b) || !finiteArray(b.bids) || !finiteArray(b.asks)) continue;
    const mid = typeof b.mid === 'number' ? b.mid : null;
    const dp = typeof b.dp === 'number' ? b.dp : null;
    wireBooks[symbol] = { mid, dp, bids: b.bids, asks: b.asks };
  }
  const wireOpen: FollowerWire['open'] = {};
  for (const [symbol, bars] of Object.entries(open)) {
    if (!isRecord(bars)) continue;
    const kept: FollowerWire['open'][string] = {};
    for (const interval of INTERVALS) {
      const bar = bars[interval];
      if (finiteArray(bar) && bar.length === 7) kept[interval] = bar;
    }
    wireOpen[symbol] = kept;
  }
  const message: MarketSnapshotMessage = { symbols, at, body, term, books: wireBooks, open: wireOpen };
  if (partition !== undefined) message.partition = partition;
  return message;
}

/** Slippage for `notional` on a follower: the worker's walk, on the published levels. */
export function followerSlippage(b: FollowerBook | undefined, notional: number): MarketSnapshot['slippage'] {
  if (!b) return { notional, buyBps: null, sellBps: null };
  return slippage([b.book], b.mid, notional);
}
