import { resolve } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/env.ts';
import type { Logger } from '../observability/logger.ts';

/** What a database's derived data (candles, predictions and their gaps) came from. */
export function marketSourceIdentity(spec: Config['marketSource']): string {
  if (spec.kind === 'replay') return `replay:${resolve(spec.folder)}`;
  // Live venues all report the same real market; adding or dropping one does not change what was derived.
  if (spec.kind === 'ccxt') return 'ccxt';
  return 'simulated';
}

/** Tables holding data derived from the market source, cleared by `--reset-derived`. */
const derivedTables = ['predictions', 'prediction_gaps', 'market_candles'] as const;

class DataSourceMismatch extends Error {
  constructor(recorded: string, wanted: string) {
    super(
      `this database was first started with the market source ${recorded}; starting it with ${wanted} would mix ` +
        `forecasts and candles derived from ${recorded} with ${wanted} data. Start with the recorded source, use ` +
        'another data folder / database, or start once with --reset-derived (MERIDIAN_RESET_DERIVED=true) to clear ' +
        `the derived data (${derivedTables.join(', ')}) and record the new source.`,
    );
    this.name = 'DataSourceMismatch';
  }
}

/**
 * Records the market source at a database's first start; later starts must use the same one. With
 * `reset`, a different source clears the derived tables (one transaction) and is recorded instead.
 */
export async function checkDataSource(
  db: Kysely<unknown>,
  wanted: string,
  options: { reset: boolean; now: number; log?: Logger },
): Promise<void> {
  const row = await sql<{
    value: string;
  }>`select value from deployment_facts where key = 'market_source'`.execute(db);
  const recorded = row.rows[0]?.value;
  if (recorded === wanted) return;
  if (recorded === undefined) {
    // A database from before the source was recorded: its history is of unknown origin, so it is adopted as is.
    await sql`insert into deployment_facts (key, value, recorded_at) values ('market_source', ${wanted}, ${options.now})
      on conflict (key) do nothing`.execute(db);
    return;
  }
  if (!options.reset) throw new DataSourceMismatch(recorded, wanted);
  await db.transaction().execute(async (tx) => {
    for (const table of derivedTables) await sql`delete from ${sql.table(table)}`.execute(tx);
    await sql`update deployment_facts set value = ${wanted}, recorded_at = ${options.now} where key = 'market_source'`.execute(
      tx,
    );
  });
  options.log?.warn(
    { from: recorded, to: wanted, cleared: derivedTables },
    'market source changed: derived data cleared (--reset-derived)',
  );
}
