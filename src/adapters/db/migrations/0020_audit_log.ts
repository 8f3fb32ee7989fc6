import { type Kysely, sql } from 'kysely';

/**
 * The audit log, append-only in the database itself: a trigger refuses every UPDATE and TRUNCATE, and every
 * DELETE unless the transaction has set `meridian.audit_retention` to `on` — which only the retention sweep
 * does (app/retention.ts). Actor ids carry no foreign key: an entry outlives the account it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'seq']).execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'seq']).execute();
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting('meridian.audit_retention', true) = 'on' then
        return old;
      end if;
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = '42501';
    end
    $$`.execute(db);
  await sql`create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await sql`drop function audit_log_append_only()`.execute(db);
}
