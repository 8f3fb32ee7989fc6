import { type Kysely, sql } from 'kysely';

/**
 * Usage by client (the console, or which API token) and a daily rollup kept 35 days for the 30-day view.
 * Counts stored before this migration keep their totals under the client `unknown`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_usage_buckets')
    .addColumn('client', 'text', (c) => c.notNull().defaultTo('unknown'))
    .execute();
  await db.schema.alterTable('api_usage_buckets').dropConstraint('api_usage_buckets_pk').execute();
  await db.schema
    .alterTable('api_usage_buckets')
    .addPrimaryKeyConstraint('api_usage_buckets_pk', ['account_id', 'bucket', 'endpoint', 'client'])
    .execute();
  await db.schema
    .createTable('api_usage_days')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('rate_limited', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_usage_days_pk', ['account_id', 'day', 'endpoint', 'client'])
    .execute();
  await db.schema.createIndex('api_usage_days_day_idx').on('api_usage_days').column('day').execute();
  // The days already counted start the rollup (the buckets hold the last 2 days).
  await sql`insert into api_usage_days (account_id, day, endpoint, client, requests, rate_limited)
    select account_id, bucket - (bucket % 86400000), endpoint, client, sum(requests), sum(rate_limited)
    from api_usage_buckets group by 1, 2, 3, 4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_usage_days').execute();
  await db.schema.alterTable('api_usage_buckets').dropConstraint('api_usage_buckets_pk').execute();
  // Per-client rows cannot be summed back under the old key in place; usage counts are not kept across a rollback.
  await sql`delete from api_usage_buckets`.execute(db);
  await db.schema.alterTable('api_usage_buckets').dropColumn('client').execute();
  await db.schema
    .alterTable('api_usage_buckets')
    .addPrimaryKeyConstraint('api_usage_buckets_pk', ['account_id', 'bucket', 'endpoint'])
    .execute();
}
