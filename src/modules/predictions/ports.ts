import type { Bus } from '../../shared/bus.ts';
import type { Clock } from '../../shared/clock.ts';
import type { PredictionRepository } from './repository.ts';
import type { PredictionsTopics } from './topics.ts';
import type { Bar, FundingPoint, OpenInterestPoint } from './types.ts';

/** What the engine needs from the market module (its `MarketService` satisfies this structurally). */
export interface PredictionsMarketPort {
  symbols(): string[];
  snapshot(symbol: string):
    | {
        mid: number | null;
        bookImbalance: number | null;
        tradeImbalance5m: number | null;
        fundingRate: number | null;
        basisBps: number | null;
      }
    | undefined;
  /**
   * The last `count` closed 1m candles, oldest first; with `after` (an open time) only those that open after
   * it (a source that ignores it answers correctly too: bars already held are skipped).
   */
  recentCandles(symbol: string, interval: '1m', count: number, after?: number): Bar[];
  /**
   * Whether the symbol's working window (the minutes the model reads) is loaded. Absent: always. A symbol is
   * warmed up and forecast only once it is.
   */
  windowReady?(symbol: string): boolean;
  /** Settled perpetual funding rates in [fromMs, toMs); absent or empty for spot-only sources. */
  fundingHistory?(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
}

/**
 * What the `funding` member reads from the derivatives module (the perpetuals merged across venues): real
 * funding, basis and open interest for a symbol with a perpetual; for one without, none of them, and the
 * member contributes nothing. When given, it replaces the market snapshot's funding and basis.
 */
export interface PredictionsDerivativesPort {
  /** The merged figures now (null: not published, or stale); undefined when the symbol has no perpetual data. */
  latest(
    symbol: string,
  ): { fundingRate: number | null; fundingIntervalHours: number | null; basisBps: number | null } | undefined;
  /** Settled funding rates stored in [fromMs, toMs), oldest first. */
  fundingHistory(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
  /** Open interest (USD, summed over venues) stored in [fromMs, toMs), oldest first. */
  openInterestHistory(symbol: string, fromMs: number, toMs: number): Promise<OpenInterestPoint[]>;
}

/** What the predictions service is built from, and its settings. */
export interface PredictionsServiceDeps {
  market: PredictionsMarketPort;
  /**
   * The derivatives module: the `funding` member's funding, basis and open interest for symbols with a
   * perpetual (absent: the market snapshot's funding and basis, and the market source's settled rates).
   */
  derivatives?: PredictionsDerivativesPort;
  repository: PredictionRepository;
  clock: Clock;
  bus?: Bus<PredictionsTopics>;
  refreshMs: number;
  /** 1m candles requested per symbol and refresh (the feature windows reach back 72 h). */
  candleHistory?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Where informational lines go (the backfill's count). */
  note?: (msg: string, extra?: Record<string, unknown>) => void;
  /** What the forecasts are made from, as answers name it: `simulated`, `replay` or `ccxt:<venues>`. */
  source?: string;
  /**
   * Independent outcomes a track-record cell needs before its figures are shown (default 30); outcomes of
   * overlapping horizons are correlated, so the datapoints needed are this × horizon ÷ refresh period.
   */
  minIndependentOutcomes?: number;
  /**
   * The refreshes come from several processes (MERIDIAN_MARKET_PARTITIONS > 1: one per partition, not in step):
   * `load` takes each symbol's newest refresh as its latest, instead of the newest refresh of all.
   */
  severalPublishers?: boolean;
  /** History the fitted references (GARCH, HAR-RV) need before their first fit; default a day plus a phase. */
  referenceMinHistoryMs?: number;
}
