import type { JSONColumnType } from 'kysely';
import type { Horizon } from '../identifiers/index.ts';
import type { MarketFacts } from './facts.ts';

/** Every datapoint ever published (the public track record), with its outcome once scored. */
export interface PredictionsTable {
  symbol: string;
  horizon: Horizon;
  generated_at: number;
  baseline: number;
  prediction: number;
  expected_move_pct: number;
  confidence: number;
  /** jsonb: read as an object, written as JSON text. */
  factors: JSONColumnType<Record<string, number>>;
  /** p05 … p95 of the forecast price (jsonb, as `factors`). */
  quantiles: JSONColumnType<Record<string, number>>;
  model_version: string;
  /** σ of the log return (the model) and of the EWMA random-walk reference, for scoring. */
  sigma: number;
  sigma_rw: number;
  realized: number | null;
  hit: boolean | null;
  crps: number | null;
  crps_rw: number | null;
  /**
   * CRPS of the fitted GARCH(1,1) and HAR-RV references on the same outcome (19 published quantiles): null
   * before the reference's first fit, or when the process that made the datapoint no longer had its forecast.
   */
  crps_garch: number | null;
  crps_har_rv: number | null;
  covered80: boolean | null;
  covered90: boolean | null;
  scored_at: number | null;
  /** Made after the fact, walk-forward over stored candles (a fresh install or an outage), not live. */
  backfilled: boolean;
  /**
   * The direction passed its evidence test: the ensemble mean (non-zero only where a member's walk-forward
   * record earned it) is non-zero and on the published side. Outlooks call a bias only from such rows.
   */
  direction_earned: boolean;
  /** The market facts at generated_at that the outlook's driver sentences quote (jsonb, as `factors`). */
  facts: JSONColumnType<MarketFacts>;
}

/** Refresh points an outage left without a datapoint. */
export interface PredictionGapsTable {
  from_ms: number;
  to_ms: number;
  missed_points: number;
  recorded_at: number;
}

/**
 * The forecast ledger: one hash-chained entry per published datapoint, appended with it (append-only: a
 * trigger refuses UPDATE, and DELETE outside the retention sweep).
 */
export interface PredictionLedgerTable {
  sequence: number;
  recorded_at: number;
  symbol: string;
  horizon: Horizon;
  generated_at: number;
  backfilled: boolean;
  /** The datapoint's canonical JSON, exactly the bytes hashed (text, not jsonb, so the bytes stay as hashed). */
  payload: string;
  prev_hash: string;
  hash: string;
}

/** The ledger's newest entry, one row (id 1); locked by each append, so appends from several processes queue. */
export interface PredictionLedgerHeadTable {
  id: number;
  sequence: number;
  hash: string;
}

export interface PredictionsTables {
  predictions: PredictionsTable;
  prediction_gaps: PredictionGapsTable;
  prediction_ledger: PredictionLedgerTable;
  prediction_ledger_head: PredictionLedgerHeadTable;
}
