import type { Horizon } from '../identifiers/index.ts';
import type { LedgerEntry, PredictionGap, PredictionRow } from './repository.ts';
import type { Factor } from './types.ts';

/** The public datapoint, exactly the documented fields. */
export interface PredictionDatapoint {
  symbol: string;
  horizon: Horizon;
  prediction: number;
  baseline: number;
  expectedMovePct: number;
  confidence: number;
  factors: Record<Factor, number>;
  generatedAt: string;
}

/** The public datapoint of a stored row: exactly the eight documented fields, in their documented order. */
export function presentDatapoint(r: PredictionRow): PredictionDatapoint {
  return {
    symbol: r.symbol,
    horizon: r.horizon,
    prediction: r.prediction,
    baseline: r.baseline,
    expectedMovePct: r.expected_move_pct,
    confidence: r.confidence,
    factors: r.factors as Record<Factor, number>,
    generatedAt: new Date(r.generated_at).toISOString(),
  };
}

/** A stored row as a page shows it: the datapoint plus what the query's `include` asks for. */
export function presentPageDatapoint(
  r: PredictionRow,
  q: { quantiles?: boolean; outcome?: boolean; modelVersion?: boolean; backfilled?: boolean },
): Record<string, unknown> {
  const d: Record<string, unknown> = { ...presentDatapoint(r) };
  if (q.quantiles) d.quantiles = r.quantiles;
  if (q.outcome)
    d.outcome =
      r.scored_at === null
        ? null
        : { realized: r.realized, hit: r.hit, scoredAt: new Date(r.scored_at).toISOString() };
  if (q.modelVersion) d.modelVersion = r.model_version;
  if (q.backfilled) d.backfilled = r.backfilled;
  return d;
}

/** The recorded gaps as the outlook and the performance report show them. */
export const presentGaps = (gaps: readonly PredictionGap[]) =>
  gaps.map((g) => ({
    from: new Date(g.from_ms).toISOString(),
    to: new Date(g.to_ms).toISOString(),
    missedPoints: g.missed_points,
  }));

/** A ledger entry as the ledger endpoint answers it (one line of an export file). */
export interface PublicLedgerEntry {
  sequence: number;
  time: string;
  recordedAtMs: number;
  symbol: string;
  horizon: string;
  generatedAt: string;
  backfilled: boolean;
  payload: string;
  prevHash: string;
  hash: string;
  /** The scored outcome (not hashed: it comes after the entry); null until scored or once the row is pruned. */
  outcome: {
    realized: number;
    hit: boolean;
    covered80: boolean;
    covered90: boolean;
    scoredAt: string;
  } | null;
}

/** A ledger entry as the ledger endpoint answers it, with the outcome of its datapoint when that is scored. */
export function presentLedgerEntry(e: LedgerEntry, row: PredictionRow | undefined): PublicLedgerEntry {
  return {
    sequence: e.sequence,
    time: new Date(e.recorded_at).toISOString(),
    recordedAtMs: e.recorded_at,
    symbol: e.symbol,
    horizon: e.horizon,
    generatedAt: new Date(e.generated_at).toISOString(),
    backfilled: e.backfilled,
    payload: e.payload,
    prevHash: e.prev_hash,
    hash: e.hash,
    outcome:
      row && row.scored_at !== null && row.realized !== null && row.hit !== null
        ? {
            realized: row.realized,
            hit: row.hit,
            covered80: row.covered80 ?? false,
            covered90: row.covered90 ?? false,
            scoredAt: new Date(row.scored_at).toISOString(),
          }
        : null,
  };
}
