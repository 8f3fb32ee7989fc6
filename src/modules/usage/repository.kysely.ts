import { type Kysely, sql } from 'kysely';
import { mergeCells } from './merge.ts';
import { type UsageRepository, dayOf } from './repository.ts';
import type { UsageTables } from './tables.ts';

export function createKyselyUsageRepository(db: Kysely<UsageTables>): UsageRepository {
  return {
    async add(cells) {
      if (!cells.length) return;
      const days = mergeCells(cells.map((c) => ({ ...c, bucket: dayOf(c.bucket) })));
      // One transaction: a retried flush must not count a bucket twice because its day failed.
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('api_usage_buckets')
          .values(
            cells.map((c) => ({
              account_id: c.accountId,
              bucket: c.bucket,
              endpoint: c.endpoint,
              client: c.client,
              requests: c.requests,
              rate_limited: c.rateLimited,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['account_id', 'bucket', 'endpoint', 'client']).doUpdateSet({
              requests: sql`api_usage_buckets.requests + excluded.requests`,
              rate_limited: sql`api_usage_buckets.rate_limited + excluded.rate_limited`,
            }),
          )
          .execute();
        await trx
          .insertInto('api_usage_days')
          .values(
            days.map((c) => ({
              account_id: c.accountId,
              day: c.bucket,
              endpoint: c.endpoint,
              client: c.client,
              requests: c.requests,
              rate_limited: c.rateLimited,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['account_id', 'day', 'endpoint', 'client']).doUpdateSet({
              requests: sql`api_usage_days.requests + excluded.requests`,
              rate_limited: sql`api_usage_days.rate_limited + excluded.rate_limited`,
            }),
          )
          .execute();
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
