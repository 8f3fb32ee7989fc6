import type { Kysely } from 'kysely';

/**
 * Forecasts made after the fact by running the production model walk-forward over stored candles (a fresh
 * install, or the span after an outage) are marked, so the live track record can leave them out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('predictions')
    .addColumn('backfilled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('predictions').dropColumn('backfilled').execute();
}
