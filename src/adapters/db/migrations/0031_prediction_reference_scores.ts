import type { Kysely } from 'kysely';

/**
 * Each scored datapoint records the CRPS of the fitted GARCH(1,1) and HAR-RV references on its outcome, so the
 * live record's comparison with them survives restarts. Rows scored before have neither (null): they are left
 * out of those comparisons, not counted as a tie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('predictions')
    .addColumn('crps_garch', 'double precision')
    .addColumn('crps_har_rv', 'double precision')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('predictions').dropColumn('crps_har_rv').dropColumn('crps_garch').execute();
}
