/**
 * Server settings of embedded PGlite, given on every start (so a data folder created by an older version
 * gets them too) and to initdb (so the cluster is created under them and its postgresql.conf says so).
 *
 * PostgreSQL's shared memory lives inside PGlite's WebAssembly memory and is zeroed when it is set up, so
 * all of `shared_buffers` is resident from the first query, and WebAssembly memory never shrinks. The
 * default 128 MB was 122 MB of the server's resident memory; 16 MB holds the hot pages of the workload here
 * (newest candles, the predictions record) and the operating system's page cache serves the rest of the
 * folder. `maintenance_work_mem` bounds what an index build or a VACUUM may add to that memory for good
 * (default 64 MB). Measured in docs/adr/0022-pglite-memory-and-cluster-creation.md.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
};

/** The settings as `postgres -c name=value` arguments (to append to PGlite's default start parameters). */
export const pgliteStartArgs = (settings = PGLITE_SETTINGS): string[] =>
  Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/** The settings as initdb arguments (`--set name=value`). */
export const pgliteInitdbArgs = (settings = PGLITE_SETTINGS): string[] =>
  Object.entries(settings).flatMap(([name, value]) => ['--set', `${name}=${value}`]);
