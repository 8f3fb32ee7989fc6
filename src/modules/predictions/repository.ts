import type { Kysely } from 'kysely';
import type { Database } from '../../adapters/db/database.ts';
import type { PredictionsTable } from './tables.ts';

export type PredictionRow = PredictionsTable;
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
}

export function memoryPredictionRepository(): PredictionRepository & { rows: PredictionRow[] } {
  const rows: PredictionRow[] = [];
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
  };
}

export function kyselyPredictionRepository(db: Kysely<Database>): PredictionRepository {
  return {
    async insert(batch) {
      for (let k = 0; k < batch.length; k += 500) {
        const chunk = batch.slice(k, k + 500).map((r) => ({
          ...r,
          factors: JSON.stringify(r.factors),
          quantiles: JSON.stringify(r.quantiles),
        }));
        // jsonb columns are written as JSON text.
        await db
          .insertInto('predictions')
          .values(chunk as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    },
    async score(updates) {
      if (!updates.length) return;
      await db.transaction().execute(async (trx) => {
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
      });
    },
    async since(since) {
      const rows = await db
        .selectFrom('predictions')
        .selectAll()
        .where('generated_at', '>=', since)
        .orderBy('generated_at')
        .execute();
      return rows.map((r) => ({
        ...r,
        generated_at: Number(r.generated_at),
        scored_at: r.scored_at === null ? null : Number(r.scored_at),
      }));
    },
  };
}
