import type { Kysely } from 'kysely';

/**
 * Facts a database records about itself once, at its first start. `market_source` is the market source the
 * stored candles and predictions were derived from; starting later with another source is refused (or, when
 * told to, what was derived from the old source is cleared first) so the two are never mixed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deployment_facts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deployment_facts').execute();
}
