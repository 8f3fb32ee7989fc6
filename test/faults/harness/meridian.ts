import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from './ports.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'bin', 'meridian.mjs');

export interface LogLine {
  time: number;
  msg: string;
  level: number;
  [field: string]: unknown;
}

/** A real `meridian serve` child process, its JSON log lines parsed and its exit recorded. */
export interface MeridianProcess {
  name: string;
  role: 'all' | 'api' | 'worker';
  port: number;
  baseUrl: string;
  pid: number;
  logs: LogLine[];
  output: string[];
  /** null while running. */
  exit: { code: number | null; signal: string | null } | null;
  kill(signal?: NodeJS.Signals): Promise<void>;
  waitForLog(what: string, match: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
}

export async function startMeridian(options: {
  name: string;
  role: 'all' | 'api' | 'worker';
  port: number;
  env: Record<string, string>;
}): Promise<MeridianProcess> {
  const child: ChildProcess = spawn(process.execPath, [cli, 'serve', '--role', options.role], {
    cwd: root,
    env: { ...process.env, PORT: String(options.port), HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: MeridianProcess = {
    name: options.name,
    role: options.role,
    port: options.port,
    baseUrl: `http://127.0.0.1:${options.port}`,
    pid: child.pid!,
    logs: [],
    output: [],
    exit: null,
    async kill(signal = 'SIGTERM') {
      if (proc.exit) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
    async waitForLog(what, match, timeoutMs) {
      let found: LogLine | undefined;
      await waitUntil(
        `${options.name}: ${what}`,
        () => {
          found = proc.logs.find(match);
          return found !== undefined || proc.exit !== null;
        },
        timeoutMs,
      );
      if (!found) throw new Error(`${options.name} exited (${JSON.stringify(proc.exit)}) before ${what}`);
      return found;
    },
  };
  let pending = '';
  const onData = (chunk: Buffer) => {
    pending += chunk.toString();
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      proc.output.push(line);
      if (line.startsWith('{')) {
        try {
          proc.logs.push(JSON.parse(line) as LogLine);
        } catch {
          // not a log line
        }
      }
      nl = pending.indexOf('\n');
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  child.once('exit', (code, signal) => {
    proc.exit = { code, signal };
  });
  await waitUntil(
    `${options.name} to start`,
    () => proc.exit !== null || proc.output.some((l) => l.startsWith(`Meridian (${options.role}) running`)),
    90_000,
  );
  if (proc.exit)
    throw new Error(
      `${options.name} exited at start (${JSON.stringify(proc.exit)}):\n${proc.output.join('\n')}`,
    );
  return proc;
}

/**
 * Runs a one-shot CLI command (`users …`, `tokens …`) to completion. `startedAt` is when it was spawned,
 * `printedAt` when its first line reached stdout (account commands print right after storing the change).
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; startedAt: number; printedAt: number }> {
  return new Promise((resolve) => {
    const startedAt = Date.now();
    let printedAt = 0;
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      printedAt ||= Date.now();
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr, startedAt, printedAt }));
  });
}
