import type { Kysely } from 'kysely';

/** Market candles. Floats (double precision) are fine here: prices and volumes, not token amounts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('market_candles')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('venue', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('open_time', 'bigint', (c) => c.notNull())
    .addColumn('open', 'double precision', (c) => c.notNull())
    .addColumn('high', 'double precision', (c) => c.notNull())
    .addColumn('low', 'double precision', (c) => c.notNull())
    .addColumn('close', 'double precision', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('quote_volume', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_candles_pk', ['symbol', 'venue', 'interval', 'open_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('market_candles').execute();
}
