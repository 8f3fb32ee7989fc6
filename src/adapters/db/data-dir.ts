import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded data folder holds every account, token hash and session: only its owner may read it. The
 * folder is created 0700; files created afterwards by this process are 0600 (umask 077), and what an older
 * version left readable by others is tightened on start.
 */
export function prepareDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir);
}

/**
 * PGlite 0.5 writes its files with explicit modes (0666), past the umask: they are tightened again once it
 * has started and when it closes. Files it creates in between sit in the 0700 folder, which nobody else can
 * enter whatever their own mode says.
 */
export function tighten(folder: string): void {
  chmodSync(folder, 0o700);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) tighten(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}
