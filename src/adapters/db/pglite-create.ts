import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteInitdbArgs, pgliteStartArgs } from './pglite-settings.ts';

/**
 * Creates the embedded cluster in `dataDir` when it holds none yet (no `PG_VERSION`), in a short-lived child
 * process (pglite-create.mjs), so the memory initdb needs is the child's and is returned when it exits: in
 * the server's own process it stayed resident, ≈ 150 MB of freed but unreturned allocator memory for the
 * whole uptime (docs/adr/0022-pglite-memory-and-cluster-creation.md). A folder already holding a cluster
 * costs one `stat`.
 */
export async function createClusterIfMissing(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const script = fileURLToPath(new URL('./pglite-create.mjs', import.meta.url));
  const child = spawn(
    process.execPath,
    [script, dataDir, JSON.stringify(pgliteInitdbArgs()), JSON.stringify(pgliteStartArgs())],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(dataDir, 'PG_VERSION')))
    throw new Error(
      `creating the embedded database in ${dataDir} failed (exit code ${code}): ${stderr.trim()}`,
    );
}
