import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('predictions')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('horizon', 'text', (c) => c.notNull())
    .addColumn('generated_at', 'bigint', (c) => c.notNull())
    .addColumn('baseline', 'double precision', (c) => c.notNull())
    .addColumn('prediction', 'double precision', (c) => c.notNull())
    .addColumn('expected_move_pct', 'double precision', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('factors', 'jsonb', (c) => c.notNull())
    .addColumn('quantiles', 'jsonb', (c) => c.notNull())
    .addColumn('model_version', 'text', (c) => c.notNull())
    .addColumn('sigma', 'double precision', (c) => c.notNull())
    .addColumn('sigma_rw', 'double precision', (c) => c.notNull())
    .addColumn('realized', 'double precision')
    .addColumn('hit', 'boolean')
    .addColumn('crps', 'double precision')
    .addColumn('crps_rw', 'double precision')
    .addColumn('covered80', 'boolean')
    .addColumn('covered90', 'boolean')
    .addColumn('scored_at', 'bigint')
    .addPrimaryKeyConstraint('predictions_pk', ['symbol', 'horizon', 'generated_at'])
    .execute();
  await db.schema.createIndex('predictions_generated_idx').on('predictions').column('generated_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('predictions').execute();
}
