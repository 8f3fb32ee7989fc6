// The thread that owns embedded PGlite (pglite-thread.ts starts it). PGlite runs every query synchronously
// in WebAssembly on the thread that calls it; here that thread is this one, so the server's event loop only
// waits for an answer, as it does with PostgreSQL. Plain JavaScript on purpose: a worker thread starts a new
// module graph, and this file must run unchanged from the sources (tsx, vitest) and from the build.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';

/** The fields of a PostgreSQL error the application reads (SQLSTATE, constraint, …), copied across. */
const ERROR_FIELDS = ['code', 'constraint', 'detail', 'hint', 'schema', 'table', 'column', 'severity'];

function errorMessage(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object')
    for (const field of ERROR_FIELDS) if (typeof error[field] === 'string') out[field] = error[field];
  return out;
}

const { dataDir, loadDataDir, startArgs, initdbArgs } = workerData;
const client = new PGlite({
  dataDir,
  loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
  // pglite-settings.ts: the server settings, after PGlite's own start parameters.
  startParams: [...PGlite.defaultStartParams, ...startArgs],
  initDbStartParams: initdbArgs,
  // int8 holds millisecond timestamps and counters: numbers, as on PostgreSQL (connect.ts).
  parsers: { [types.INT8]: (value) => Number(value) },
});

async function answer(message) {
  switch (message.op) {
    case 'query': {
      const result = await client.query(message.sql, message.params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    }
    case 'dump': {
      const blob = await client.dumpDataDir('gzip');
      return { bytes: await blob.arrayBuffer() };
    }
    case 'close': {
      if (!client.closed) await client.close();
      return {};
    }
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

client.waitReady.then(
  () => {
    parentPort.postMessage({ ready: true });
    parentPort.on('message', (message) => {
      answer(message).then(
        (result) => parentPort.postMessage({ id: message.id, result }),
        (error) => parentPort.postMessage({ id: message.id, error: errorMessage(error) }),
      );
    });
  },
  (error) => parentPort.postMessage({ ready: false, error: errorMessage(error) }),
);
