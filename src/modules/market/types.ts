import type { Interval } from '../identifiers/index.ts';
import type { Candle } from './candles.ts';

/** One venue's part in a symbol's merged view. */
export interface VenueView {
  venue: string;
  /** Venue mid, null before the first book. */
  price: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  spreadBps: number | null;
  /** 24 h base volume on this venue. */
  volume24h: number;
  /** 24 h quote volume (USD). */
  quoteVolume24h: number;
  /** Share of the merged price (0 when excluded). Weights of included venues sum to 1. */
  weight: number;
  /** No update within the staleness limit: excluded from the merge. */
  stale: boolean;
  /** Mid too far from the median of the other venues: excluded from the merge. */
  outlier: boolean;
  /** Last book or trade update (ms). */
  updatedAt: number | null;
}

/** Depth in USD (quote) within ± a band of the merged mid. */
export interface DepthBands {
  '0.5%': { bid: number; ask: number };
  '1%': { bid: number; ask: number };
  '2%': { bid: number; ask: number };
}

/**
 * The merged view of one symbol across venues at `updatedAt` — what GET /api/market-data serves and what
 * the predictions engine reads. Prices in quote currency (USDT ≈ USD).
 */
export interface MarketSnapshot {
  symbol: string;
  /** Merged mid: weighted by venue liquidity over included (fresh, non-outlier) venues. */
  mid: number | null;
  /** Best bid / ask of the consolidated book of included venues. */
  bestBid: number | null;
  bestAsk: number | null;
  spreadBps: number | null;
  /** (bid depth − ask depth) / (bid depth + ask depth) within ±1 % of mid, in [-1, 1]; null without a book. */
  bookImbalance: number | null;
  /** (buy − sell aggressor volume) / total over the last 5 minutes, in [-1, 1]; null without trades. */
  tradeImbalance5m: number | null;
  /** Latest perpetual funding rate (fraction per 8 h period), null when unknown. */
  fundingRate: number | null;
  /** (perp mark − spot mid) / spot mid in bps, null when unknown. */
  basisBps: number | null;
  /** 24 h change of the merged price, in percent. */
  change24hPct: number | null;
  high24h: number | null;
  low24h: number | null;
  volume24h: number;
  quoteVolume24h: number;
  vwap24h: number | null;
  depth: DepthBands;
  /** Slippage in bps of a market buy / sell of the default notional; null when the book is too thin. */
  slippage: { notional: number; buyBps: number | null; sellBps: number | null };
  venues: VenueView[];
  updatedAt: number;
}

export interface CandleClosed {
  symbol: string;
  /** A venue id, or `merged` for the cross-venue candle. */
  venue: string;
  interval: Interval;
  candle: Candle;
}

export interface CandleQuery {
  symbol: string;
  interval: Interval;
  /** Inclusive open time lower bound (ms). */
  fromMs: number;
  /** Exclusive open time upper bound (ms). */
  toMs: number;
  /** Default `merged`. */
  venue?: string;
  /** Maximum rows (default and cap 1000). */
  limit?: number;
}

/**
 * The market service: the market module's public face for the HTTP layer and for other engines
 * (predictions, on-chain, alerts, portfolio). Everything synchronous is served from memory.
 */
export interface MarketService {
  /** Canonical symbols tracked, in configuration order. */
  symbols(): string[];
  /** Venues of the running source. */
  venues(): string[];
  /** The current merged view, undefined for an unknown symbol or before the first event. */
  snapshot(symbol: string): MarketSnapshot | undefined;
  /**
   * The last `count` closed merged candles, oldest first, from memory (up to a few days of 1m bars and
   * their roll-ups are kept). Fewer when history is shorter. With `after` (an open time), only the candles
   * that open after it: a reader that holds the older ones asks for what is new, not for the window again.
   */
  recentCandles(symbol: string, interval: Interval, count: number, after?: number): Candle[];
  /** The open (not yet closed) merged candle of the current interval, if any trades happened. */
  openCandle(symbol: string, interval: Interval): Candle | undefined;
  /** Candles from storage, oldest first; includes the open candle when the range reaches now. */
  candlesBetween(query: CandleQuery): Promise<Candle[]>;
  /** Called for every closed candle (every venue, `merged`, every interval). Returns an unsubscribe. */
  onCandleClosed(handler: (event: CandleClosed) => void): () => void;
  /** Called after each aggregation tick with the symbols whose snapshots changed. Returns an unsubscribe. */
  onSnapshot(handler: (symbols: string[]) => void): () => void;
  /**
   * USD price of an asset (`ETH`, `WBTC`, `USDC`) or a canonical symbol (`ETHUSDT`) at `atMs` (default now):
   * the merged 1m close of the bar containing that time (memory, then storage); USDT/USDC/DAI/BUSD… = 1;
   * wrapped assets map to their underlying (WETH→ETH, WBTC→BTC). Null when unknown.
   */
  usdPrice(assetOrSymbol: string, atMs?: number): Promise<number | null>;
  /** The latest merged mid in USD, synchronous; null when unknown. */
  usdPriceNow(assetOrSymbol: string): number | null;
}
