import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDataDir } from '../adapters/db/data-dir.ts';

/**
 * PGlite allows one process per data folder. The process that opens it holds this lock file (with its pid);
 * a second process sees the lock and, if its owner is alive, must not open the folder. A lock left by a
 * process that died is taken over.
 */
export interface DataDirLock {
  release(): void;
}

const lockPath = (dataDir: string) => join(dataDir, 'meridian.lock');
export const socketPath = (dataDir: string) => join(dataDir, 'meridian.sock');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid of the live process holding the folder, if any. */
export function lockHolder(dataDir: string): number | undefined {
  const path = lockPath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    const pid = Number(JSON.parse(readFileSync(path, 'utf8')).pid);
    return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquireDataDirLock(dataDir: string, role: string): DataDirLock {
  prepareDataDir(dataDir);
  const path = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, role, since: new Date().toISOString() }));
      closeSync(fd);
      return {
        release: () => {
          try {
            if (Number(JSON.parse(readFileSync(path, 'utf8')).pid) === process.pid) rmSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder) throw new DataDirBusyError(dataDir, holder);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the data folder ${dataDir} is in use by another Meridian process (pid ${pid})`);
  }
}
