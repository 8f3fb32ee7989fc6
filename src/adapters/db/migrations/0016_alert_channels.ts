import type { Kysely } from 'kysely';

/**
 * Alert channels (email, Telegram, Discord, Slack) are endpoints of the webhook outbox with a `kind`: their
 * credentials sealed like a webhook's signing secret, an email address's pending verification, and each
 * delivery's channel kind (the per-hour message caps count human channels). Rules gain a message template and
 * the end of a cap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('name', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('verify_hash', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('verify_expires_at', 'bigint').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('verify_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('webhook'))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_account_recent_idx')
    .on('webhook_deliveries')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema.alterTable('alert_rules').addColumn('template', 'text').execute();
  await db.schema.alterTable('alert_rules').addColumn('capped_until', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('alert_rules').dropColumn('capped_until').execute();
  await db.schema.alterTable('alert_rules').dropColumn('template').execute();
  await db.schema.dropIndex('webhook_deliveries_account_recent_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('channel').execute();
  for (const column of ['verify_tries', 'verify_expires_at', 'verify_hash', 'name', 'kind'])
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
}
