import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { DerivativesRepository, StoredPoint } from './repository.ts';
import type { DerivativesTables } from './tables.ts';

const BATCH = 1000;

/** `[start, time, value, value2]` per bucket, oldest first, as one JSON text. */
interface BucketsRow {
  buckets: string;
}

export function createKyselyDerivativesRepository(db: Kysely<DerivativesTables>): DerivativesRepository {
  async function upsertBatches(executor: QueryExecutorProvider, rows: readonly StoredPoint[]) {
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch = rows.slice(from, from + BATCH);
      // The same key twice in one statement would fail: the last row per key wins (highest ordinality).
      await sql`
        insert into derivatives_points (symbol, metric, time, value, value2)
        select distinct on (symbol, metric, time) symbol, metric, time, value, value2
        from unnest(
          ${batch.map((r) => r.symbol)}::text[], ${batch.map((r) => r.metric)}::text[],
          ${batch.map((r) => r.time)}::bigint[], ${batch.map((r) => r.value)}::float8[],
          ${batch.map((r) => r.value2)}::float8[])
        with ordinality as given (symbol, metric, time, value, value2, nth)
        order by symbol, metric, time, nth desc
        on conflict (symbol, metric, time) do update set value = excluded.value, value2 = excluded.value2`.execute(
        executor,
      );
    }
  }
  return {
    async upsert(rows, term) {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        await upsertBatches(trx, rows);
      });
    },
    async range(symbol, metric, fromMs, toMs, limit) {
      const rows = await db
        .selectFrom('derivatives_points')
        .select(['time', 'value', 'value2'])
        .where('symbol', '=', symbol)
        .where('metric', '=', metric)
        .where('time', '>=', fromMs)
        .where('time', '<', toMs)
        .orderBy('time', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ time: Number(r.time), value: r.value, value2: r.value2 }));
    },
    async buckets(symbol, metric, intervalMs, fromMs, toMs, limit, mode) {
      const page =
        mode === 'last'
          ? sql`
              select distinct on (start) time - mod(time, ${intervalMs}::bigint) as start, time, value, value2
              from derivatives_points
              where symbol = ${symbol} and metric = ${metric} and time >= ${fromMs} and time < ${toMs}
              order by start, time desc
              limit ${limit}`
          : sql`
              select time - mod(time, ${intervalMs}::bigint) as start, max(time) as time,
                sum(value) as value, sum(value2) as value2
              from derivatives_points
              where symbol = ${symbol} and metric = ${metric} and time >= ${fromMs} and time < ${toMs}
              group by start order by start
              limit ${limit}`;
      // One row of JSON instead of a row per bucket: on embedded PGlite the per-row decoding was half the time.
      const { rows } = await sql<BucketsRow>`
        select coalesce(json_agg(json_build_array(start, time, value, value2) order by start)::text, '[]') as buckets
        from (${page}) as page`.execute(db);
      const list = JSON.parse(rows[0]?.buckets ?? '[]') as Array<
        [number, number, number | null, number | null]
      >;
      return list.map(([start, time, value, value2]) => ({ start, time, value, value2 }));
    },
    async extent(symbol, metric) {
      const row = await db
        .selectFrom('derivatives_points')
        .select((eb) => [eb.fn.min('time').as('first'), eb.fn.max('time').as('last')])
        .where('symbol', '=', symbol)
        .where('metric', '=', metric)
        .executeTakeFirst();
      return row?.first == null ? undefined : { first: Number(row.first), last: Number(row.last) };
    },
  };
}
