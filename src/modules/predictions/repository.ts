import type { Kysely, Selectable } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import { type LeaderTerm, StaleLeaderError } from '../../shared/leadership.ts';
import type { PredictionsTable, PredictionsTables } from './tables.ts';

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
  between(symbol: string, horizon: string, from: number, to: number): Promise<PredictionRow[]>;
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

export function memoryPredictionRepository(): PredictionRepository & { rows: PredictionRow[] } {
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
      if (term && !term.current()) throw new StaleLeaderError(term.job, term.term);
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

export function kyselyPredictionRepository(db: Kysely<PredictionsTables>): PredictionRepository {
  async function insertInto(db: Kysely<PredictionsTables>, batch: readonly PredictionRow[]) {
    for (let k = 0; k < batch.length; k += 500) {
      const chunk = batch.slice(k, k + 500).map((r) => ({
        ...r,
        factors: JSON.stringify(r.factors),
        quantiles: JSON.stringify(r.quantiles),
      }));
      // jsonb columns are written as JSON text.
      await db
        .insertInto('predictions')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  async function scoreIn(trx: Kysely<PredictionsTables>, updates: readonly ScoreUpdate[]) {
    for (const u of updates) {
      await trx
        .updateTable('predictions')
        .set({
          realized: u.realized,
          hit: u.hit,
          crps: u.crps,
          crps_rw: u.crps_rw,
          covered80: u.covered80,
          covered90: u.covered90,
          scored_at: u.scored_at,
        })
        .where('symbol', '=', u.symbol)
        .where('horizon', '=', u.horizon)
        .where('generated_at', '=', u.generated_at)
        .execute();
    }
  }
  return {
    insert: (batch) => insertInto(db, batch),
    async score(updates) {
      if (!updates.length) return;
      await db.transaction().execute((trx) => scoreIn(trx, updates));
    },
    async record(batch, updates, term) {
      await db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        await insertInto(trx, batch);
        await scoreIn(trx, updates);
      });
    },
    async recordGap(gap) {
      await db
        .insertInto('prediction_gaps')
        .values(gap)
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async gaps(since) {
      const rows = await db
        .selectFrom('prediction_gaps')
        .selectAll()
        .where('to_ms', '>=', since)
        .orderBy('from_ms')
        .execute();
      return rows.map((g) => ({
        from_ms: Number(g.from_ms),
        to_ms: Number(g.to_ms),
        missed_points: g.missed_points,
        recorded_at: Number(g.recorded_at),
      }));
    },
    async since(since) {
      const rows = await db
        .selectFrom('predictions')
        .selectAll()
        .where('generated_at', '>=', since)
        .orderBy('generated_at')
        .execute();
      return rows.map(fromStorage);
    },
    async between(symbol, horizon, from, to) {
      const rows = await db
        .selectFrom('predictions')
        .selectAll()
        .where('symbol', '=', symbol)
        .where('horizon', '=', horizon)
        .where('generated_at', '>=', from)
        .where('generated_at', '<=', to)
        .orderBy('generated_at')
        .execute();
      return rows.map(fromStorage);
    },
  };
}

/** bigint columns arrive as strings from PostgreSQL. */
function fromStorage(r: PredictionRow): PredictionRow {
  return {
    ...r,
    generated_at: Number(r.generated_at),
    scored_at: r.scored_at === null ? null : Number(r.scored_at),
  };
}
