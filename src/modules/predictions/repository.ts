import type { Selectable } from 'kysely';
import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import type { Horizon } from '../identifiers/index.ts';
import type { PredictionsTable } from './tables.ts';

export type PredictionRow = Selectable<PredictionsTable>;
export type ScoreUpdate = Pick<
  PredictionRow,
  | 'symbol'
  | 'horizon'
  | 'generated_at'
  | 'realized'
  | 'hit'
  | 'crps'
  | 'crps_rw'
  | 'covered80'
  | 'covered90'
  | 'scored_at'
>;

/** Storage port of the predictions module: the database is the record, memory is the cache. */
export interface PredictionRepository {
  insert(rows: readonly PredictionRow[]): Promise<void>;
  score(updates: readonly ScoreUpdate[]): Promise<void>;
  /** Rows generated at or after `since`, oldest first. */
  since(since: number): Promise<PredictionRow[]>;
  /** One symbol and horizon's rows generated in [from, to], oldest first (paging back through the record). */
  between(symbol: string, horizon: Horizon, from: number, to: number): Promise<PredictionRow[]>;
  /**
   * One refresh's writes in one transaction, fenced by the writer's leadership term: new datapoints and the
   * scores of those whose horizon has passed. Throws StaleLeaderError (nothing written) when the term is
   * no longer current.
   */
  record(rows: readonly PredictionRow[], updates: readonly ScoreUpdate[], term?: LeaderTerm): Promise<void>;
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

export function createMemoryPredictionRepository(): PredictionRepository & { rows: PredictionRow[] } {
  const rows: PredictionRow[] = [];
  const gapList: PredictionGap[] = [];
  const key = (r: Pick<PredictionRow, 'symbol' | 'horizon' | 'generated_at'>) =>
    `${r.symbol}|${r.horizon}|${r.generated_at}`;
  const index = new Map<string, PredictionRow>();
  return {
    rows,
    async insert(batch) {
      for (const r of batch) {
        if (index.has(key(r))) continue;
        const copy = { ...r };
        rows.push(copy);
        index.set(key(r), copy);
      }
    },
    async score(updates) {
      for (const u of updates) {
        const r = index.get(key(u));
        if (r) Object.assign(r, u);
      }
    },
    async since(since) {
      return rows.filter((r) => r.generated_at >= since).sort((a, b) => a.generated_at - b.generated_at);
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
      await this.insert(batch);
      await this.score(updates);
    },
    async recordGap(gap) {
      if (!gapList.some((g) => g.from_ms === gap.from_ms)) gapList.push({ ...gap });
    },
    async gaps(since) {
      return gapList.filter((g) => g.to_ms >= since);
    },
  };
}
