import { type Kysely, sql } from 'kysely';

/**
 * The forecast ledger: a SHA-256 hash chain of every published datapoint, appended in the transaction that
 * stores it. Append-only in the database itself: a trigger refuses UPDATE and TRUNCATE, and DELETE unless the
 * retention sweep says so for its transaction (`meridian.ledger_retention` = 'on'); the head row may only move
 * forward. Datapoints stored before this migration are not in the ledger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prediction_ledger')
    .addColumn('sequence', 'bigint', (c) => c.primaryKey())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('horizon', 'text', (c) => c.notNull())
    .addColumn('generated_at', 'bigint', (c) => c.notNull())
    .addColumn('backfilled', 'boolean', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('prediction_ledger_symbol_idx')
    .on('prediction_ledger')
    .columns(['symbol', 'sequence'])
    .execute();
  // Time spans of the endpoint, and the retention sweep's cut-off.
  await db.schema
    .createIndex('prediction_ledger_recorded_idx')
    .on('prediction_ledger')
    .column('recorded_at')
    .execute();
  await db.schema
    .createTable('prediction_ledger_head')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into prediction_ledger_head (id, sequence, hash) values (1, 0, ${'0'.repeat(64)})`.execute(
    db,
  );
  await sql`create function prediction_ledger_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting('meridian.ledger_retention', true) = 'on' then
        return old;
      end if;
      raise exception 'prediction_ledger is append-only: % refused', tg_op using errcode = '55000';
    end $$`.execute(db);
  await sql`create trigger prediction_ledger_append_only before update or delete on prediction_ledger
    for each row execute function prediction_ledger_append_only()`.execute(db);
  await sql`create trigger prediction_ledger_no_truncate before truncate on prediction_ledger
    for each statement execute function prediction_ledger_append_only()`.execute(db);
  await sql`create function prediction_ledger_head_forward() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.sequence > old.sequence then
        return new;
      end if;
      raise exception 'prediction_ledger_head only moves forward: % refused', tg_op using errcode = '55000';
    end $$`.execute(db);
  await sql`create trigger prediction_ledger_head_forward before update or delete on prediction_ledger_head
    for each row execute function prediction_ledger_head_forward()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prediction_ledger_head').execute();
  await db.schema.dropTable('prediction_ledger').execute();
  await sql`drop function prediction_ledger_head_forward()`.execute(db);
  await sql`drop function prediction_ledger_append_only()`.execute(db);
}
