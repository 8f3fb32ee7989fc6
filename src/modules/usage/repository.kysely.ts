import { type Kysely, sql } from 'kysely';
import { mergeCells } from './merge.ts';
import { type UsageCell, type UsageRepository, dayOf } from './repository.ts';
import type { UsageTables } from './tables.ts';

/** Adds the cells' counts to their rows of `table` (`time` names its period column), creating missing rows. */
async function addCounts(
  db: Kysely<UsageTables>,
  table: 'api_usage_buckets' | 'api_usage_days',
  time: 'bucket' | 'day',
  cells: readonly UsageCell[],
): Promise<void> {
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
    async add(cells) {
      if (!cells.length) return;
      const days = mergeCells(cells.map((c) => ({ ...c, bucket: dayOf(c.bucket) })));
      // One transaction: a retried flush must not count a bucket twice because its day failed.
      await db.transaction().execute(async (trx) => {
        await addCounts(trx, 'api_usage_buckets', 'bucket', cells);
        await addCounts(trx, 'api_usage_days', 'day', days);
      });
    },
    async totals(accountId, sinceMs, grain = 'bucket') {
      const rows =
        grain === 'day'
          ? await db
              .selectFrom('api_usage_days')
              .select((eb) => [
                'endpoint',
                'client',
                eb.fn.sum<string | number>('requests').as('requests'),
                eb.fn.sum<string | number>('rate_limited').as('rate_limited'),
              ])
              .where('account_id', '=', accountId)
              .where('day', '>=', sinceMs)
              .groupBy(['endpoint', 'client'])
              .execute()
          : await db
              .selectFrom('api_usage_buckets')
              .select((eb) => [
                'endpoint',
                'client',
                eb.fn.sum<string | number>('requests').as('requests'),
                eb.fn.sum<string | number>('rate_limited').as('rate_limited'),
              ])
              .where('account_id', '=', accountId)
              .where('bucket', '>=', sinceMs)
              .groupBy(['endpoint', 'client'])
              .execute();
      return rows.map((r) => ({
        endpoint: r.endpoint,
        client: r.client,
        requests: Number(r.requests),
        rateLimited: Number(r.rate_limited),
      }));
    },
    async prune(bucketsBeforeMs, daysBeforeMs) {
      const buckets = await db
        .deleteFrom('api_usage_buckets')
        .where('bucket', '<', bucketsBeforeMs)
        .executeTakeFirst();
      let n = Number(buckets.numDeletedRows);
      if (daysBeforeMs !== undefined) {
        const days = await db.deleteFrom('api_usage_days').where('day', '<', daysBeforeMs).executeTakeFirst();
        n += Number(days.numDeletedRows);
      }
      return n;
    },
  };
}
