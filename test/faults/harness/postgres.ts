import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

/**
 * A PostgreSQL cluster of the fault suite's own: initdb + pg_ctl on a temporary folder and a free port, so
 * it can be frozen, stopped and restarted without touching any other database. initdb and pg_ctl refuse to
 * run as root; when the suite runs as root they run as the `postgres` OS user (runuser) on a folder it owns.
 */
export interface OwnPostgres {
  port: number;
  url(database?: string): string;
  /** The postmaster's PID (its children are the backends). */
  postmasterPid(): number;
  /** SIGSTOP / SIGCONT the postmaster and every backend: a server that accepts nothing and answers nothing. */
  freeze(): void;
  thaw(): void;
  stop(): void;
  start(): void;
  destroy(): void;
}

export function findPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (initdb, pg_ctl)');
}

export async function startOwnPostgres(settings: { maxConnections?: number } = {}): Promise<OwnPostgres> {
  const bin = findPostgresBin();
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), 'meridian-faults-pg-'));
  const data = join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(folder, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${folder}`,
    '-c fsync=off',
    `-c max_connections=${settings.maxConnections ?? 200}`,
  ].join(' ');
  const start = () => {
    run('pg_ctl', ['-D', data, '-l', join(folder, 'log'), '-o', options, '-w', '-t', '30', 'start']);
  };
  const stop = () => {
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  start();
  const clusterPids = () => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === postmaster) children.push(Number(entry));
      } catch {
        // the process ended while we looked
      }
    }
    return [postmaster, ...children];
  };
  const signal = (name: NodeJS.Signals) => {
    for (const pid of clusterPids()) {
      try {
        process.kill(pid, name);
      } catch {
        // ended meanwhile
      }
    }
  };
  return {
    port,
    postmasterPid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    stop,
    start,
    destroy() {
      try {
        signal('SIGCONT');
        stop();
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
