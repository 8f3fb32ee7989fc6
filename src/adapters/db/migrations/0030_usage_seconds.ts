import type { Kysely } from 'kysely';

/**
 * Usage per second, kept two minutes: the current rate-limit window's requests and 429s per endpoint and
 * client, summed over every API replica's flushes as the 10-minute buckets are. The account is an
 * organization (0028), as for the buckets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_usage_seconds')
    .addColumn('account_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('second', 'bigint', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('rate_limited', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_usage_seconds_pk', ['account_id', 'second', 'endpoint', 'client'])
    .execute();
  await db.schema
    .createIndex('api_usage_seconds_second_idx')
    .on('api_usage_seconds')
    .column('second')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_usage_seconds').execute();
}
