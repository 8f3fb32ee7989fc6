import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './database.ts';

export interface DbHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** A cheap round trip, used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a gzip tarball of the data folder, loadable with `loadDataDir`. */
  dump?: () => Promise<Blob>;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite only: start from a dumped data folder (tests use a migrated snapshot). */
  loadDataDir?: Blob;
  poolSize?: number;
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite in the data folder (or in memory without one). */
export async function openDatabase(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPostgres(url: string, max: number): Promise<DbHandle> {
  const { default: pg } = await import('pg');
  // BIGINT (int8) and NUMERIC come back as strings by default; we keep NUMERIC as strings (exact
  // decimals) and parse int8 to number, since every int8 we store is a millisecond timestamp or a counter.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  pool.on('connect', (client) => {
    // A client whose connection ends while checked out (a terminated backend, a restart) emits 'error' after
    // failing its query; pg-pool listens only while the client is idle, so without this the process would
    // crash on an event whose error the query in flight already reports to its caller.
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => db.destroy(),
  };
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<DbHandle> {
  const { PGlite, types } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite({
    dataDir,
    loadDataDir,
    parsers: { [types.INT8]: (value: string) => Number(value) },
  });
  await client.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await db.destroy();
      if (!client.closed) await client.close();
    },
    dump: async () => (await client.dumpDataDir('gzip')) as Blob,
  };
}

/**
 * A module's repository sees only its own tables: `Kysely<Database>` narrowed to them. Kysely's types are
 * invariant in the schema, so this is a cast, safe because Database extends every module's tables.
 */
export const tablesOf = <T>(db: Kysely<Database>): Kysely<T> => db as unknown as Kysely<T>;
