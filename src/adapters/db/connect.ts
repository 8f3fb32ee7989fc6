import { type Dialect, Kysely, PostgresDialect } from 'kysely';
import type { Database } from './database.ts';
import { prepareDataDir, tighten } from './data-dir.ts';
import { createClusterIfMissing } from './pglite-create.ts';
import { pgliteInitdbArgs, pgliteStartArgs } from './pglite-settings.ts';
import { PgliteThreadDialect, startPgliteThread } from './pglite-thread.ts';
import { sendCancelRequest } from './cancel-request.ts';
import { connectBudgetExhausted, createConnectBudget } from './connect-budget.ts';
import { resilientPool } from './postgres-pool.ts';

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
  /** PGlite only: run it on a worker thread (pglite-thread.ts), not on the caller's thread. */
  thread?: boolean;
  poolSize?: number;
  /** PostgreSQL only: how long to wait for storage (defaults: the configuration's defaults). */
  timeouts?: Partial<DbTimeouts>;
  /** PostgreSQL only: told about connection errors (they are survived; this is for the log). */
  onConnectionError?: (error: Error) => void;
}

export interface DbTimeouts {
  /** Opening a connection, and waiting for a free pooled one. */
  connectMs: number;
  /** One statement: enforced by the server (statement_timeout) and, a little later, by the client. */
  statementMs: number;
  /** A session left idle inside a transaction is ended by the server. */
  idleInTransactionMs: number;
  /**
   * A connection whose statement passed the client deadline is cancelled and held (still counted against
   * the pool) until the server answers, at most this long; then it is dropped.
   */
  quarantineMs: number;
}

const defaultDbTimeouts: DbTimeouts = {
  connectMs: 1_000,
  statementMs: 1_250,
  idleInTransactionMs: 5_000,
  quarantineMs: 300_000,
};

/**
 * Connections a process may open: twice the pool at once, then the pool's size every 5 s. Normal churn (a
 * burst after idle connections were closed, reconnects after a restart) stays far below it.
 */
const connectBudgetOf = (poolSize: number) => ({ burst: 2 * poolSize, perSecond: poolSize / 5 });

/** The slack the client-side deadline leaves the server's statement_timeout to answer first. */
const clientDeadlineSlackMs = 250;

/** Opens PostgreSQL when a URL is given, otherwise PGlite in the data folder (or in memory without one). */
export async function openDatabase(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl)
    return openPostgres(
      options.databaseUrl,
      options.poolSize ?? 10,
      { ...defaultDbTimeouts, ...options.timeouts },
      options.onConnectionError ?? (() => {}),
    );
  return options.thread
    ? openPgliteThread(options.dataDir, options.loadDataDir)
    : openPglite(options.dataDir, options.loadDataDir);
}

async function openPostgres(
  url: string,
  max: number,
  timeouts: DbTimeouts,
  onConnectionError: (error: Error) => void,
): Promise<DbHandle> {
  const { default: pg } = await import('pg');
  // BIGINT (int8) and NUMERIC come back as strings by default; we keep NUMERIC as strings (exact
  // decimals) and parse int8 to number, since every int8 we store is a millisecond timestamp or a counter.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const budget = createConnectBudget(connectBudgetOf(max));
  /** Every connection the pool opens takes one from the budget first; none left: it fails fast (503). */
  class BudgetedClient extends pg.Client {
    override connect(callback?: (...args: never[]) => void): never {
      if (budget.take())
        return (callback ? super.connect(callback as (err: Error) => void) : super.connect()) as never;
      const error = connectBudgetExhausted();
      if (!callback) return Promise.reject(error) as never;
      process.nextTick(() => (callback as (error: Error) => void)(error));
      return undefined as never;
    }
  }
  const pool = new pg.Pool({
    Client: BudgetedClient,
    connectionString: url,
    max,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + clientDeadlineSlackMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    keepAlive: true,
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: resilientPool(pool, onConnectionError, {
        quarantineMs: timeouts.quarantineMs,
        statementDeadlineMs: timeouts.statementMs + clientDeadlineSlackMs,
        connectMs: timeouts.connectMs,
        cancel: (client) => sendCancelRequest(client as never, timeouts.connectMs),
      }),
    }),
  });
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
    },
    close: () => db.destroy(),
  };
}

/** What an embedded engine gives the handle: in-process PGlite or PGlite on its own thread. */
interface EmbeddedEngine {
  dialect: Dialect;
  ping(): Promise<unknown>;
  /** Called after Kysely let go of the engine, when it has more to close. */
  close?(): Promise<void>;
  dump(): Promise<Blob>;
}

/**
 * The handle of an embedded store: the folder is prepared (and its cluster created, in a process of its own,
 * unless it is to be loaded from a dump) before the engine opens it, and tightened after.
 */
async function openEmbedded(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  open: () => Promise<EmbeddedEngine>,
): Promise<DbHandle> {
  if (dataDir) {
    prepareDataDir(dataDir);
    if (!loadDataDir) await createClusterIfMissing(dataDir);
  }
  const engine = await open();
  if (dataDir) tighten(dataDir);
  const db = new Kysely<Database>({ dialect: engine.dialect });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await engine.ping();
    },
    close: async () => {
      await db.destroy();
      await engine.close?.();
      if (dataDir) tighten(dataDir);
    },
    dump: () => engine.dump(),
  };
}

function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<DbHandle> {
  return openEmbedded(dataDir, loadDataDir, async () => {
    const { PGlite, types } = await import('@electric-sql/pglite');
    const { PGliteDialect } = await import('kysely-pglite-dialect');
    const client = new PGlite({
      dataDir,
      loadDataDir,
      startParams: [...PGlite.defaultStartParams, ...pgliteStartArgs()],
      initDbStartParams: pgliteInitdbArgs(),
      parsers: { [types.INT8]: (value: string) => Number(value) },
    });
    await client.waitReady;
    return {
      dialect: new PGliteDialect(client),
      ping: () => client.query('select 1'),
      close: async () => {
        if (!client.closed) await client.close();
      },
      dump: async () => (await client.dumpDataDir('gzip')) as Blob,
    };
  });
}

function openPgliteThread(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<DbHandle> {
  return openEmbedded(dataDir, loadDataDir, async () => {
    const thread = await startPgliteThread({ dataDir, loadDataDir });
    return {
      dialect: new PgliteThreadDialect(thread),
      ping: () => thread.query('select 1', []),
      dump: () => thread.dump(),
    };
  });
}

/**
 * A module's repository sees only its own tables: `Kysely<Database>` narrowed to them. Kysely's types are
 * invariant in the schema, so this is a cast, safe because Database extends every module's tables.
 */
export const tablesOf = <T>(db: Kysely<Database>): Kysely<T> => db as unknown as Kysely<T>;
