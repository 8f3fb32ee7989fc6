import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { pgliteInitdbArgs, pgliteStartArgs } from './pglite-settings.ts';

/**
 * Embedded PGlite on a thread of its own. PGlite executes each query synchronously in WebAssembly on the
 * thread that calls it: on the server's thread every background write (candles, a model refresh, the
 * start-up backfill) is a pause of the event loop that answers requests, 12–17 ms per write measured and
 * seconds at start-up (docs/adr/0015-pglite-thread-and-token-cache.md). Here the database runs in a worker
 * thread and a query is a message and an answer, as with PostgreSQL.
 *
 * Hand-written because no package does this for Node: PGlite's own `PGliteWorker` is built on the
 * browser's Web Worker and tab-leader election, and `pglite-socket` speaks the wire protocol over TCP
 * with a single client. The part written here is the Kysely driver (one connection, queued, as
 * `kysely-pglite-dialect` does for PGlite in-process) and a message protocol of three operations.
 */
export interface PgliteThread {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; affectedRows: number }>;
  /** A gzip tarball of the data folder (PGlite's `dumpDataDir`). */
  dump(): Promise<Blob>;
  /** Closes the database (its files are consistent afterwards) and ends the thread. */
  close(): Promise<void>;
}

interface Answer {
  id?: number;
  ready?: boolean;
  result?: Record<string, unknown>;
  error?: { message: string } & Record<string, string>;
}

/** An error raised in the thread, with the PostgreSQL fields (SQLSTATE `code`, `constraint`, …) it carried. */
function remoteError(error: NonNullable<Answer['error']>): Error {
  const { message, ...fields } = error;
  return Object.assign(new Error(message), fields);
}

export async function startPgliteThread(options: {
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pglite-thread-worker.mjs', import.meta.url), {
    workerData: {
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined,
      startArgs: pgliteStartArgs(),
      initdbArgs: pgliteInitdbArgs(),
    },
  });
  const pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  let nextId = 1;
  let ended: Error | undefined;
  const endAll = (error: Error) => {
    ended ??= error;
    for (const p of pending.values()) p.reject(ended);
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.once('message', (first: Answer) =>
      first.ready ? resolve() : reject(remoteError(first.error ?? { message: 'PGlite did not start' })),
    );
    worker.once('error', reject);
  });
  worker.on('message', (answer: Answer) => {
    const p = answer.id === undefined ? undefined : pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id!);
    if (answer.error) p.reject(remoteError(answer.error));
    else p.resolve(answer.result ?? {});
  });
  worker.on('error', (error) => endAll(new Error(`the storage thread failed: ${error.message}`)));
  worker.on('exit', (code) => endAll(new Error(`the storage thread ended (exit code ${code})`)));

  const call = (message: Record<string, unknown>): Promise<Record<string, unknown>> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };
  let closing: Promise<void> | undefined;
  return {
    query: async (sql, params) =>
      (await call({ op: 'query', sql, params })) as { rows: unknown[]; affectedRows: number },
    dump: async () => new Blob([(await call({ op: 'dump' })).bytes as ArrayBuffer]),
    close: () => {
      closing ??= (async () => {
        if (!ended) await call({ op: 'close' });
        await worker.terminate();
      })();
      return closing;
    },
  };
}

/** Kysely over a `PgliteThread`: PostgreSQL's SQL and introspection, one connection at a time. */
export class PgliteThreadDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new SingleConnectionDriver(this.thread);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * A query parameter as it can cross to the thread. Messages are structured clones, which refuse class
 * instances (a `Decimal`, say) that PGlite in-process turns into text. So such a value is turned into text
 * here, as PGlite would: its own `toString` (a decimal's exact digits), else its JSON. A plain object (a
 * JSON column) is sent as its JSON text, which PGlite stores as it would have stringified it. Primitives,
 * dates, bytes and arrays of them cross as they are.
 */
export function cloneableParameter(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date || ArrayBuffer.isView(value)) return value;
  // Arrays of primitives (a batch's unnest columns: thousands of values) cross as they are, without a copy.
  if (Array.isArray(value))
    return value.every((v) => v === null || typeof v !== 'object') ? value : value.map(cloneableParameter);
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return JSON.stringify(value);
  return value.toString !== Object.prototype.toString ? String(value) : JSON.stringify(value);
}

class ThreadConnection implements DatabaseConnection {
  constructor(private readonly thread: PgliteThread) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.thread.query(
      query.sql,
      query.parameters.map(cloneableParameter),
    );
    return affectedRows
      ? { rows: rows as R[], numAffectedRows: BigInt(affectedRows) }
      : { rows: rows as R[] };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered (no caller uses it); this says so.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on embedded storage');
  }
}

/**
 * PGlite is one session, so the driver hands out one connection at a time: a transaction holds it from
 * `begin` to `commit`, and everything else waits in order.
 */
class SingleConnectionDriver implements Driver {
  private readonly connection: ThreadConnection;
  private busy = false;
  private readonly waiting: Array<(c: DatabaseConnection) => void> = [];

  constructor(private readonly thread: PgliteThread) {
    this.connection = new ThreadConnection(thread);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return this.connection;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next(this.connection);
    else this.busy = false;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
    await c.executeQuery(
      CompiledQuery.raw(
        settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin',
      ),
    );
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }
  async destroy() {
    await this.thread.close();
  }
}
