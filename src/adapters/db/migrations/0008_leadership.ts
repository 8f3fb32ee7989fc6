import type { Kysely } from 'kysely';

/**
 * Leadership of background jobs as leases with terms. One row per job: the current term, its holder and when
 * its lease ends (milliseconds on the database clock). `leader_terms` keeps every term ever granted, so an
 * operator (and the fault suite) can see who led when. `prediction_gaps` records refresh points a model
 * refresh outage left without a datapoint.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leader_leases')
    .addColumn('job', 'text', (c) => c.primaryKey())
    .addColumn('term', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('leader_terms')
    .addColumn('job', 'text', (c) => c.notNull())
    .addColumn('term', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leader_terms_pk', ['job', 'term'])
    .execute();
  await db.schema
    .createTable('prediction_gaps')
    .addColumn('from_ms', 'bigint', (c) => c.notNull())
    .addColumn('to_ms', 'bigint', (c) => c.notNull())
    .addColumn('missed_points', 'integer', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('prediction_gaps_pk', ['from_ms'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prediction_gaps').execute();
  await db.schema.dropTable('leader_terms').execute();
  await db.schema.dropTable('leader_leases').execute();
}
