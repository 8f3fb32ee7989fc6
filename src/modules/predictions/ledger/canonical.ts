import type { Selectable } from 'kysely';
import type { PredictionsTable } from '../tables.ts';

/** The stored fields a datapoint is published with (what the model derived beside them is not committed). */
type PredictionRow = Omit<Selectable<PredictionsTable>, 'direction_earned' | 'facts'>;

/**
 * Canonical JSON (RFC 8785, JCS, for the values a datapoint holds): object keys sorted by UTF-16 code units,
 * no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (shortest round-trip form).
 * The same object always gives the same bytes, whoever serializes it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

/**
 * What a ledger entry commits to: every published field of the datapoint (the eight of a page, its quantiles,
 * model version and backfilled mark), as the API shows them. Nothing known only later (the outcome).
 */
export function ledgerPayload(r: PredictionRow): Record<string, unknown> {
  return {
    symbol: r.symbol,
    horizon: r.horizon,
    generatedAt: new Date(r.generated_at).toISOString(),
    prediction: r.prediction,
    baseline: r.baseline,
    expectedMovePct: r.expected_move_pct,
    confidence: r.confidence,
    factors: r.factors,
    quantiles: r.quantiles,
    modelVersion: r.model_version,
    backfilled: r.backfilled,
  };
}

/** A stored datapoint's canonical payload: the exact bytes its ledger entry hashes. */
export const canonicalPayload = (r: PredictionRow): string => canonicalJson(ledgerPayload(r));
