import type { Bus } from '../../shared/bus.ts';
import type { Clock } from '../../shared/clock.ts';
import type { PredictionsDerivativesPort, PredictionsMarketPort } from './ports.ts';
import type { PredictionRepository } from './repository.ts';
import type { PredictionsTopics } from './topics.ts';

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
