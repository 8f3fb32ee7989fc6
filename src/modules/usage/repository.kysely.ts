import { type Kysely, sql } from 'kysely';
import { mergeCells } from './merge.ts';
import { type UsageCell, type UsageGrain, type UsageRepository, dayOf } from './repository.ts';
import type { UsageTables } from './tables.ts';

type UsageTable = 'api_usage_buckets' | 'api_usage_days' | 'api_usage_seconds';
type PeriodColumn = 'bucket' | 'day' | 'second';

/** Each grain's table and the name of its period column. */
const GRAINS: Record<UsageGrain, { table: UsageTable; time: PeriodColumn }> = {
  bucket: { table: 'api_usage_buckets', time: 'bucket' },
  day: { table: 'api_usage_days', time: 'day' },
  second: { table: 'api_usage_seconds', time: 'second' },
};

/** Adds the cells' counts to their rows of `table` (`time` names its period column), creating missing rows. */
async function addCounts(
  db: Kysely<UsageTables>,
  table: UsageTable,
  time: PeriodColumn,
  cells: readonly UsageCell[],
): Promise<void> {
  if (!cells.length) return;
  const rows = cells.map((c) => ({
    account_id: c.accountId,
    [time]: c.bucket,
    endpoint: c.endpoint,
    client: c.client,
    requests: c.requests,
    rate_limited: c.rateLimited,
  }));
  await db
    .insertInto(table)
    .values(rows as never)
    .onConflict((oc) =>
      oc.columns(['account_id', time, 'endpoint', 'client'] as never).doUpdateSet({
        requests: sql.raw(`${table}.requests + excluded.requests`),
        rate_limited: sql.raw(`${table}.rate_limited + excluded.rate_limited`),
      } as never),
    )
    .execute();
}

export function createKyselyUsageRepository(db: Kysely<UsageTables>): UsageRepository {
  return {
    async add(cells, seconds = []) {
      if (!cells.length && !seconds.length) return;
      const days = mergeCells(cells.map((c) => ({ ...c, bucket: dayOf(c.bucket) })));
      // One transaction: a retried flush must not count a bucket twice because its day failed.
      await db.transaction().execute(async (trx) => {
        await addCounts(trx, 'api_usage_buckets', 'bucket', cells);
        await addCounts(trx, 'api_usage_days', 'day', days);
        await addCounts(trx, 'api_usage_seconds', 'second', seconds);
      });
    },
    async totals(accountId, sinceMs, grain = 'bucket') {
      const { table, time } = GRAINS[grain];
      // The three tables share their columns but for the period's name, which the types cannot follow.
      const rows = await (db as unknown as Kysely<{ t: UsageTables['api_usage_buckets'] }>)
        .selectFrom(table as 't')
        .select((eb) => [
          'endpoint',
          'client',
          eb.fn.sum<string | number>('requests').as('requests'),
          eb.fn.sum<string | number>('rate_limited').as('rate_limited'),
        ])
        .where('account_id', '=', accountId)
        .where(time as 'bucket', '>=', sinceMs)
        .groupBy(['endpoint', 'client'])
        .execute();
      return rows.map((r) => ({
        endpoint: r.endpoint,
        client: r.client,
        requests: Number(r.requests),
        rateLimited: Number(r.rate_limited),
      }));
    },
    async prune(bucketsBeforeMs, daysBeforeMs, secondsBeforeMs) {
      const buckets = await db
        .deleteFrom('api_usage_buckets')
        .where('bucket', '<', bucketsBeforeMs)
        .executeTakeFirst();
      let n = Number(buckets.numDeletedRows);
      if (daysBeforeMs !== undefined) {
        const days = await db.deleteFrom('api_usage_days').where('day', '<', daysBeforeMs).executeTakeFirst();
        n += Number(days.numDeletedRows);
      }
      if (secondsBeforeMs !== undefined) {
        const seconds = await db
          .deleteFrom('api_usage_seconds')
          .where('second', '<', secondsBeforeMs)
          .executeTakeFirst();
        n += Number(seconds.numDeletedRows);
      }
      return n;
    },
  };
}
