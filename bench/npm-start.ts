import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm start` as a user runs it, for the benchmarks that measure the server that way (served.ts,
 * pipeline.ts): a fresh embedded data folder, rate limits raised so the limiter runs on every request but
 * never refuses, the URL read from its output and the API token from the first-start credentials file.
 */
export interface Started {
  child: ChildProcess;
  url: string;
  token: string;
}

export function startServed(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  cwd?: string,
): Promise<Started> {
  // `detached` gives npm and everything it starts its own process group, stopped as a whole below.
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      MERIDIAN_DATA_DIR: dataDir,
      MERIDIAN_RATE_LIMIT_STANDARD: '1000000000',
      MERIDIAN_RATE_LIMIT_PRO: '1000000000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in 300 s:\n${out}`)), 300_000);
    child.stdout!.on('data', (d) => {
      out += d;
      // A first start writes the admin's credentials to a 0600 file in the data folder, never to stdout.
      const file = join(dataDir, 'first-start-credentials.txt');
      const token = existsSync(file)
        ? readFileSync(file, 'utf8').match(/API token:\s+(\S+)/)?.[1]
        : undefined;
      const url = out.match(/running at (http:\/\/\S+)/)?.[1];
      if (token && url) {
        clearTimeout(timer);
        resolve({ child, url, token });
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
}

export async function waitReady(url: string) {
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('/readyz never answered 200');
}

export function stopServed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
    setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 15_000).unref();
  });
}

/** The server process itself (node running the CLI), for its CPU time per request: npm's newest descendant. */
export function serverProcess(npmPid: number): ChildProcess | undefined {
  const tree = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(npmPid)], { encoding: 'utf8' });
  const line = tree
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => / serve\b/.test(l) && !/^\d+ (sh|npm)/.test(l))
    .at(-1);
  return line ? ({ pid: Number(line.split(' ')[0]) } as ChildProcess) : undefined;
}

/** `NAME=value …` items as an environment, refused unless every item has that shape. */
export function parseEnvItems(text: string, what: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(item);
    if (!m) throw new Error(`${what}: expected NAME=value items, got ${item}`);
    env[m[1]!] = m[2]!;
  }
  return env;
}
