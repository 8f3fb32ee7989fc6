import { type Kysely, sql } from 'kysely';

/**
 * Alert rules and their triggers (modules/alerts). A trigger row's unique (rule_id, event_key) is what makes
 * firing exactly-once across evaluators and restarts: it is written in the same transaction as the account
 * events it produces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text')
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('trigger_mode', 'text', (c) => c.notNull())
    .addColumn('cooldown_sec', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('normalized', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_satisfied', 'boolean')
    .addColumn('last_event_at', 'bigint')
    .addColumn('last_triggered_at', 'bigint')
    .addColumn('trigger_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  // Listing: an account's rules newest first (keyset on created_at, id).
  await db.schema
    .createIndex('alert_rules_account_idx')
    .on('alert_rules')
    .columns(['account_id', 'created_at desc', 'id desc'])
    .execute();
  // The evaluator's incremental sync reads rules changed since a watermark.
  await db.schema.createIndex('alert_rules_updated_idx').on('alert_rules').column('updated_at').execute();
  await db.schema
    .createIndex('alert_rules_live_idx')
    .on('alert_rules')
    .column('state')
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('alert_triggers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('flow_id', 'text')
    .addColumn('value', 'double precision')
    .addColumn('event_at', 'bigint', (c) => c.notNull())
    .addColumn('fired_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('alert_triggers_rule_key', ['rule_id', 'event_key'])
    .execute();
  await db.schema
    .createIndex('alert_triggers_flow_idx')
    .on('alert_triggers')
    .column('flow_id')
    .where(sql.ref('flow_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('alert_triggers_rule_idx')
    .on('alert_triggers')
    .columns(['rule_id', 'fired_at'])
    .execute();
  // The dashboard's latest triggers of an account.
  await db.schema
    .createIndex('alert_triggers_account_idx')
    .on('alert_triggers')
    .columns(['account_id', 'fired_at desc'])
    .execute();
}
