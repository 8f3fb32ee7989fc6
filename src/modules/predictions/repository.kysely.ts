import { type Kysely, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { PredictionRepository, PredictionRow, ScoreUpdate } from './repository.ts';
import type { PredictionsTables } from './tables.ts';

export function createKyselyPredictionRepository(db: Kysely<PredictionsTables>): PredictionRepository {
  async function insertInto(db: Kysely<PredictionsTables>, batch: readonly PredictionRow[]) {
    for (let k = 0; k < batch.length; k += 500) {
      const chunk = batch.slice(k, k + 500).map((r) => ({
        ...r,
        factors: JSON.stringify(r.factors),
        quantiles: JSON.stringify(r.quantiles),
        facts: JSON.stringify(r.facts),
      }));
      // jsonb columns are written as JSON text.
      await db
        .insertInto('predictions')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  /**
   * The scores of one refresh in one statement per 500 rows (an UPDATE joined to a VALUES list), not one
   * statement per row: a refresh scores about three rows a symbol, and per row that was a round trip each
   * (to the storage thread or the server), hundreds a refresh at 200 symbols.
   */
  async function scoreIn(trx: Kysely<PredictionsTables>, updates: readonly ScoreUpdate[]) {
    for (let k = 0; k < updates.length; k += 500) {
      const values = sql.join(
        updates
          .slice(k, k + 500)
          .map(
            (u) =>
              sql`(${u.symbol}::text, ${u.horizon}::text, ${u.generated_at}::bigint, ${u.realized}::double precision, ${u.hit}::boolean, ${u.crps}::double precision, ${u.crps_rw}::double precision, ${u.covered80}::boolean, ${u.covered90}::boolean, ${u.scored_at}::bigint)`,
          ),
      );
      await sql`UPDATE predictions AS p SET realized = v.realized, hit = v.hit, crps = v.crps, crps_rw = v.crps_rw,
        covered80 = v.covered80, covered90 = v.covered90, scored_at = v.scored_at
        FROM (VALUES ${values}) AS v(symbol, horizon, generated_at, realized, hit, crps, crps_rw, covered80, covered90, scored_at)
        WHERE p.symbol = v.symbol AND p.horizon = v.horizon AND p.generated_at = v.generated_at`.execute(trx);
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
