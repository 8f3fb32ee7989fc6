import { spawn } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteInitdbArgs, pgliteStartArgs } from './pglite-settings.ts';

/**
 * Creates the embedded cluster in `dataDir` when it holds none yet (no `PG_VERSION`), in a short-lived child
 * process (pglite-create.mjs), so the memory initdb needs is the child's and is returned when it exits: in
 * the server's own process it stayed resident, ≈ 150 MB of freed but unreturned allocator memory for the
 * whole uptime (docs/adr/0022-pglite-memory-and-cluster-creation.md). A folder already holding a cluster
 * costs one `stat`; with the build's migrated template (pglite-template.ts) a new one is a copy of it.
 */
export async function createClusterIfMissing(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  if (copyPgliteTemplate(dataDir)) return;
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

/**
 * An empty embedded cluster with every migration applied, made once by the build (dist/pglite-template, by
 * pglite-template.ts): a new data folder starts as a copy of it instead of initdb and the migrations, ≈ 8 s
 * of a first start here. Running from source (tests) there is none: a new folder is created as before.
 */
export const pgliteTemplateDir = fileURLToPath(new URL('../../pglite-template', import.meta.url));

/**
 * Copies the template into `dataDir` when there is one; false when not. PG_VERSION, which marks a folder
 * as holding a cluster, is copied last, so a copy cut short is started over rather than opened.
 */
export function copyPgliteTemplate(dataDir: string, template = pgliteTemplateDir): boolean {
  if (!existsSync(join(template, 'PG_VERSION'))) return false;
  cpSync(template, dataDir, { recursive: true, filter: (source) => source !== join(template, 'PG_VERSION') });
  cpSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
  return true;
}
