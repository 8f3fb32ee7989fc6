import { hash as digest } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { PredictionLedgerTable, PredictionsTable } from '../tables.ts';
import { canonicalPayload } from './canonical.ts';

/** The previous hash of the first entry: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** The newest entry of the ledger (sequence 0 with the genesis hash while it is empty). */
export interface LedgerHead {
  sequence: number;
  hash: string;
}

export const EMPTY_HEAD: LedgerHead = { sequence: 0, hash: GENESIS_HASH };

/**
 * The hash of an entry: SHA-256, as lower-case hex, of the UTF-8 text
 * `<prevHash>\n<sequence>\n<recordedAt ms>\n<payload>`.
 */
export function entryHash(sequence: number, recordedAt: number, prevHash: string, payload: string): string {
  return digest('sha256', `${prevHash}\n${sequence}\n${recordedAt}\n${payload}`, 'hex');
}

/** The entries that append `rows` (in their order) after `head`, all recorded at `recordedAt`. */
export function chainEntries(
  head: LedgerHead,
  rows: readonly Selectable<PredictionsTable>[],
  recordedAt: number,
): Selectable<PredictionLedgerTable>[] {
  const entries: Selectable<PredictionLedgerTable>[] = [];
  let { sequence, hash } = head;
  for (const r of rows) {
    const payload = canonicalPayload(r);
    sequence += 1;
    const next = entryHash(sequence, recordedAt, hash, payload);
    entries.push({
      sequence,
      recorded_at: recordedAt,
      symbol: r.symbol,
      horizon: r.horizon,
      generated_at: r.generated_at,
      backfilled: r.backfilled,
      payload,
      prev_hash: hash,
      hash: next,
    });
    hash = next;
  }
  return entries;
}

/** The `Meridian-Ledger-Head` value: `<sequence>:<hash>`. */
export const formatHead = (head: LedgerHead): string => `${head.sequence}:${head.hash}`;
