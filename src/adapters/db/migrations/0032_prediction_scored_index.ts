import type { Kysely } from 'kysely';

/**
 * An API replica reloads only what changed since its last load: datapoints generated after it, or scored
 * after it. The scored half is found by `scored_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('predictions_scored_idx').on('predictions').column('scored_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('predictions_scored_idx').execute();
}
