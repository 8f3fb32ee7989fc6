import { type Kysely, sql } from 'kysely';

/**
 * Each datapoint records whether its direction was earned (the ensemble mean, passed by the members' evidence
 * test, is non-zero and on the published side) and the market facts its outlook sentences quote. Rows stored
 * before have neither: their direction counts as not earned, so no outlook calls them bullish or bearish.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('predictions')
    .addColumn('direction_earned', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('predictions')
    .addColumn('facts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('predictions').dropColumn('facts').execute();
  await db.schema.alterTable('predictions').dropColumn('direction_earned').execute();
}
