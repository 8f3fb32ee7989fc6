import type { Kysely } from 'kysely';

/** The account event log: what webhooks deliver and the `/events` stream replays (see modules/events). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_events')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('test', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_events_account_idx')
    .on('account_events')
    .columns(['account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('account_events_created_idx')
    .on('account_events')
    .columns(['created_at'])
    .execute();
}
