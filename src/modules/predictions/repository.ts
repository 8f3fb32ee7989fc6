import type { Selectable } from 'kysely';
import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import type { Horizon } from '../identifiers/index.ts';
import { EMPTY_HEAD, type LedgerHead, chainEntries } from './ledger/chain.ts';
import type { PredictionLedgerTable, PredictionsTable } from './tables.ts';

export type PredictionRow = Selectable<PredictionsTable>;
/** One stored ledger entry. */
export type LedgerEntry = Selectable<PredictionLedgerTable>;
export type { LedgerHead };

/** A slice of the ledger: entries after `afterSequence` up to `upToSequence`, recorded in [from, to). */
export interface LedgerQuery {
  afterSequence: number;
  upToSequence: number;
  from: number;
  to: number;
  symbol?: string;
  limit: number;
}

/**
 * Rows generated at or after `notBefore` that were generated after `generatedAfter` or scored after
 * `scoredAfter` (of `symbols` only, when given): what a reader that loaded the record needs to catch up.
 */
export interface ChangeQuery {
  notBefore: number;
  generatedAfter: number;
  scoredAfter: number;
  symbols?: readonly string[];
}

/** A ledger entry with its datapoint as stored now (undefined once retention or a reset removed it). */
export interface LedgerRecord {
  entry: LedgerEntry;
  row: PredictionRow | undefined;
}
export type ScoreUpdate = Pick<
  PredictionRow,
  | 'symbol'
  | 'horizon'
  | 'generated_at'
  | 'realized'
  | 'hit'
  | 'crps'
  | 'crps_rw'
  | 'crps_garch'
  | 'crps_har_rv'
  | 'covered80'
  | 'covered90'
  | 'scored_at'
>;

/** Storage port of the predictions module: the database is the record, memory is the cache. */
export interface PredictionRepository {
  /**
   * Stores datapoints (one already stored is skipped) and, in the same transaction, appends a ledger entry for
   * each one stored; resolves to the ledger's head after it.
   */
  insert(rows: readonly PredictionRow[]): Promise<LedgerHead>;
  score(updates: readonly ScoreUpdate[]): Promise<void>;
  /** Rows generated at or after `since` (and before `q.before`), oldest first (of `q.symbols` only, when given). */
  since(since: number, q?: { before?: number; symbols?: readonly string[] }): Promise<PredictionRow[]>;
  /** When the oldest row generated at or after `since` was generated (undefined: there is none). */
  oldest(since: number): Promise<number | undefined>;
  /** What changed after a load (see `ChangeQuery`), oldest first. */
  changedSince(q: ChangeQuery): Promise<PredictionRow[]>;
  /** One symbol and horizon's rows generated in [from, to], oldest first (paging back through the record). */
  between(symbol: string, horizon: Horizon, from: number, to: number): Promise<PredictionRow[]>;
  /**
   * One refresh's writes in one transaction, fenced by the writer's leadership term: new datapoints and the
   * scores of those whose horizon has passed, and the ledger entries of the new datapoints. Throws
   * StaleLeaderError (nothing written) when the term is no longer current. Resolves to the ledger's head.
   */
  record(
    rows: readonly PredictionRow[],
    updates: readonly ScoreUpdate[],
    term?: LeaderTerm,
  ): Promise<LedgerHead>;
  ledgerHead(): Promise<LedgerHead>;
  /** Ledger entries in sequence order (no update path: the ledger is append-only). */
  ledger(q: LedgerQuery): Promise<LedgerRecord[]>;
  /** Notes refresh points an outage left without a datapoint (the record says so instead of a silent hole). */
  recordGap(gap: PredictionGap): Promise<void>;
  gaps(since: number): Promise<PredictionGap[]>;
}

export interface PredictionGap {
  /** The last refresh before the outage and the first after it. */
  from_ms: number;
  to_ms: number;
  missed_points: number;
  recorded_at: number;
}

export function createMemoryPredictionRepository(
  options: { now?: () => number } = {},
): PredictionRepository & { rows: PredictionRow[]; entries: LedgerEntry[] } {
  const now = options.now ?? Date.now;
  const rows: PredictionRow[] = [];
  const entries: LedgerEntry[] = [];
  let head: LedgerHead = EMPTY_HEAD;
  const gapList: PredictionGap[] = [];
  const key = (r: Pick<PredictionRow, 'symbol' | 'horizon' | 'generated_at'>) =>
    `${r.symbol}|${r.horizon}|${r.generated_at}`;
  const index = new Map<string, PredictionRow>();
  return {
    rows,
    entries,
    async insert(batch) {
      const stored: PredictionRow[] = [];
      for (const r of batch) {
        if (index.has(key(r))) continue;
        const copy = { ...r };
        rows.push(copy);
        index.set(key(r), copy);
        stored.push(copy);
      }
      const appended = chainEntries(head, stored, now());
      entries.push(...appended);
      if (appended.length) head = { sequence: appended.at(-1)!.sequence, hash: appended.at(-1)!.hash };
      return head;
    },
    async score(updates) {
      for (const u of updates) {
        const r = index.get(key(u));
        if (r) Object.assign(r, u);
      }
    },
    async since(since, q) {
      const of = q?.symbols && new Set(q.symbols);
      const before = q?.before ?? Number.POSITIVE_INFINITY;
      return rows
        .filter((r) => r.generated_at >= since && r.generated_at < before && (!of || of.has(r.symbol)))
        .sort((a, b) => a.generated_at - b.generated_at);
    },
    async oldest(since) {
      let oldest = Number.POSITIVE_INFINITY;
      for (const r of rows) if (r.generated_at >= since) oldest = Math.min(oldest, r.generated_at);
      return Number.isFinite(oldest) ? oldest : undefined;
    },
    async changedSince(q) {
      const of = q.symbols && new Set(q.symbols);
      return rows
        .filter(
          (r) =>
            r.generated_at >= q.notBefore &&
            (r.generated_at > q.generatedAfter || (r.scored_at !== null && r.scored_at > q.scoredAfter)) &&
            (!of || of.has(r.symbol)),
        )
        .sort((a, b) => a.generated_at - b.generated_at);
    },
    async between(symbol, horizon, from, to) {
      return rows
        .filter(
          (r) =>
            r.symbol === symbol && r.horizon === horizon && r.generated_at >= from && r.generated_at <= to,
        )
        .sort((a, b) => a.generated_at - b.generated_at);
    },
    async record(batch, updates, term) {
      refuseLostTerm(term);
      const after = await this.insert(batch);
      await this.score(updates);
      return after;
    },
    async ledgerHead() {
      return head;
    },
    async ledger(q) {
      const out: LedgerRecord[] = [];
      for (const entry of entries) {
        if (out.length >= q.limit) break;
        if (entry.sequence <= q.afterSequence || entry.sequence > q.upToSequence) continue;
        if (entry.recorded_at < q.from || entry.recorded_at >= q.to) continue;
        if (q.symbol !== undefined && entry.symbol !== q.symbol) continue;
        out.push({ entry: { ...entry }, row: index.get(key(entry)) });
      }
      return out;
    },
    async recordGap(gap) {
      if (!gapList.some((g) => g.from_ms === gap.from_ms)) gapList.push({ ...gap });
    },
    async gaps(since) {
      return gapList.filter((g) => g.to_ms >= since);
    },
  };
}
