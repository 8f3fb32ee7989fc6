import type { Clock } from '../../shared/clock.ts';
import type { FundingPoint } from './candle-files.ts';
import type { Candle } from './candles.ts';
import type { MarketEvent } from './events.ts';

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
   * Closed 1-minute candles per venue for [fromMs, toMs), oldest first, in chunks. Sources that cannot
   * backfill yield nothing. Used on start to fill history up to now.
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
