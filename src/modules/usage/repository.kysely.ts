import { type Kysely, sql } from 'kysely';
import type { UsageRepository } from './repository.ts';
import type { UsageTables } from './tables.ts';

export function createKyselyUsageRepository(db: Kysely<UsageTables>): UsageRepository {
  return {
    async add(cells) {
      if (!cells.length) return;
      await db
        .insertInto('api_usage_buckets')
        .values(
          cells.map((c) => ({
            account_id: c.accountId,
            bucket: c.bucket,
            endpoint: c.endpoint,
            requests: c.requests,
            rate_limited: c.rateLimited,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['account_id', 'bucket', 'endpoint']).doUpdateSet({
            requests: sql`api_usage_buckets.requests + excluded.requests`,
            rate_limited: sql`api_usage_buckets.rate_limited + excluded.rate_limited`,
          }),
        )
        .execute();
    },
    async totals(accountId, sinceMs) {
      const rows = await db
        .selectFrom('api_usage_buckets')
        .select((eb) => [
          'endpoint',
          eb.fn.sum<string | number>('requests').as('requests'),
          eb.fn.sum<string | number>('rate_limited').as('rate_limited'),
        ])
        .where('account_id', '=', accountId)
        .where('bucket', '>=', sinceMs)
        .groupBy('endpoint')
        .execute();
      return rows.map((r) => ({
        endpoint: r.endpoint,
        requests: Number(r.requests),
        rateLimited: Number(r.rate_limited),
      }));
    },
    async prune(beforeMs) {
      const result = await db
        .deleteFrom('api_usage_buckets')
        .where('bucket', '<', beforeMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
