import type { Clock } from '../../shared/clock.ts';
import type { FundingPoint } from './candle-files.ts';
import type { Candle } from './candles.ts';

/**
 * The market module's ports: the source port that adapters (`src/adapters/market/*`) fill, and the
 * normalized market events a source delivers.
 */

/**
 * The source port. An adapter (simulated | replay | ccxt, in `src/adapters/market/`) delivers normalized
 * events to one sink, and can backfill 1-minute candles for a time range (history on first start and
 * after downtime). Domain code never imports an adapter; the composition root picks one.
 */
export interface MarketSource {
  /** `simulated`, `replay`, `ccxt`. */
  readonly kind: string;
  /** Venues this source covers (lower-case ids). */
  readonly venues: readonly string[];
  /** Canonical symbols this source covers. */
  readonly symbols: readonly string[];
  /**
   * The source's own clock, when its time is not wall time (a replay plays recorded time). The market
   * service then uses it for candle closing, staleness and `updatedAt`.
   */
  readonly clock?: Clock;
  /** Store per-venue candles from `backfill` too (otherwise only the merged series is stored for history). */
  readonly persistVenueHistory?: boolean;
  /**
   * `backfill` is a cheap, pure function of time (the simulated market): history is computed when a read
   * reaches it instead of fetched and stored up front. Candles built live are stored and win over computed ones.
   */
  readonly historyOnRead?: boolean;
  /** The earliest time the source has history for (a recording's first bar); offered history starts no earlier. */
  readonly historySince?: number;
  /**
   * Closed 1-minute candles per venue for [fromMs, toMs), oldest first, in chunks. Sources that cannot
   * backfill yield nothing. Used after start, in the background, to fill history up to now.
   */
  backfill(venue: string, symbol: string, fromMs: number, toMs: number): AsyncIterable<Candle[]>;
  /**
   * Settled perpetual funding rates with settlement time in [fromMs, toMs), oldest first — what a perpetual
   * feed had published by then. Sources without funding history omit it.
   */
  fundingHistory?(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
  /** Starts emitting live events into `sink` (which must not throw). Resolves once running. */
  start(sink: (event: MarketEvent) => void): Promise<void>;
  /** Asks for a fresh book snapshot after a sequence gap. Optional: sources that resync themselves omit it. */
  resync?(venue: string, symbol: string): void;
  stop(): Promise<void>;
}

/**
 * Normalized market events: what every source adapter (simulated, replay, ccxt) emits, per venue and
 * symbol, with the venue's time and our receive time (ms since the epoch). Prices in quote currency,
 * sizes in base currency, symbols canonical (`BTCUSDT`), venues lower-case ccxt ids (`binance`).
 */
export type Side = 'buy' | 'sell';

/** A price level: [price, size]. In a delta, size 0 removes the level. */
export type Level = [price: number, size: number];

interface EventBase {
  venue: string;
  symbol: string;
  exchangeTime: number;
  receiveTime: number;
}

export interface TradeEvent extends EventBase {
  kind: 'trade';
  price: number;
  size: number;
  /** The aggressor (taker) side: `buy` lifted an ask, `sell` hit a bid. */
  side: Side;
}

/** A full L2 book. Replaces whatever the consumer held; `sequence` starts the delta chain. */
export interface BookSnapshotEvent extends EventBase {
  kind: 'book_snapshot';
  sequence: number;
  /** Best first: bids descending, asks ascending. */
  bids: Level[];
  asks: Level[];
}

/** Changed levels since `sequence - 1`. A consumer seeing any other predecessor has a gap and must resync. */
export interface BookDeltaEvent extends EventBase {
  kind: 'book_delta';
  sequence: number;
  bids: Level[];
  asks: Level[];
}

/** Perpetual funding: the rate (fraction per funding period, 0.0001 = 0.01 %) and the prices around it. */
export interface FundingEvent extends EventBase {
  kind: 'funding';
  rate: number;
  markPrice?: number;
  indexPrice?: number;
  nextFundingTime?: number;
}

export type MarketEvent = TradeEvent | BookSnapshotEvent | BookDeltaEvent | FundingEvent;
