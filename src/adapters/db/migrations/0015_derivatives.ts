import type { Kysely } from 'kysely';

/** Merged perpetual-futures series (funding, open interest, basis, liquidations) per symbol. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('derivatives_points')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('value2', 'double precision')
    .addPrimaryKeyConstraint('derivatives_points_pk', ['symbol', 'metric', 'time'])
    .execute();
  // Retention deletes by metric and age.
  await db.schema
    .createIndex('derivatives_points_metric_time')
    .on('derivatives_points')
    .columns(['metric', 'time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('derivatives_points').execute();
}
