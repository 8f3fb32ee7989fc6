// Creates an embedded PostgreSQL cluster in a data folder, in a process of its own (pglite-create.ts runs
// it): `node pglite-create.mjs <folder> <initdb arguments as JSON> <start arguments as JSON>`. PGlite's
// initdb runs a second PostgreSQL instance and copies its whole WebAssembly memory, ≈ 0.7 GB at its peak,
// and most of what it allocated stays in the allocator's arenas after it is freed; here it all goes back to
// the operating system when this process exits. Plain JavaScript, like the storage thread's script.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, initdbArgs, startArgs] = process.argv.slice(2);
const client = new PGlite({
  dataDir,
  initDbStartParams: JSON.parse(initdbArgs),
  startParams: [...PGlite.defaultStartParams, ...JSON.parse(startArgs)],
});
await client.waitReady;
await client.close();
