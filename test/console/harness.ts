import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { waitFor as waitForValue } from '../harness/wait.ts';

/** Debian's chromium; the console's browser suites drive it with playwright-core. */
export const chromiumPath = process.env.MERIDIAN_CHROMIUM ?? '/usr/bin/chromium';
export const haveChromium = existsSync(chromiumPath);
export const artifactsDir = join(process.cwd(), 'test-artifacts', 'console');

const root = process.cwd();
const bin = join(root, 'bin/meridian.mjs');

/** Builds console/dist when it is missing or older than its sources (what `npm start` does). */
export function ensureConsoleBuilt() {
  const result = spawnSync(process.execPath, [join(root, 'scripts/ensure-console.mjs')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the web console failed');
}

/** Headless chromium. Playwright gives each launch a fresh, temporary profile (its own --user-data-dir). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsoleServer {
  address: string;
  dataDir: string;
  child: ChildProcess;
  /** Runs `meridian …` against this server (handed over its admin socket, as an operator would). */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** `meridian users create` with a known password; throws with the CLI's message when it fails. */
  createUser(email: string, password: string, options?: { role?: string; plan?: string }): Promise<void>;
  stop(): Promise<void>;
}

/** The real server (`meridian serve`, embedded PGlite in a fresh folder) on a free port. */
export async function startConsoleServer(env: Record<string, string> = {}): Promise<ConsoleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-console-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const childEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    PORT: '0',
    MERIDIAN_DATA_DIR: dataDir,
    MERIDIAN_MARKET_HISTORY_DAYS: '2',
    ...env,
  };
  const child = spawn(process.execPath, [bin, 'serve'], { env: childEnv });
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 150_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const found = /running at (http:\/\/\S+)/.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const run = spawn(process.execPath, [bin, ...args], { env: childEnv });
      let stdout = '';
      let stderr = '';
      run.stdout.on('data', (d) => {
        stdout += d;
      });
      run.stderr.on('data', (d) => {
        stderr += d;
      });
      run.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  return {
    address,
    dataDir,
    child,
    cli,
    async createUser(email, password, { role = 'member', plan = 'standard' } = {}) {
      const args = [
        'users',
        'create',
        '--email',
        email,
        '--role',
        role,
        '--password',
        password,
        '--plan',
        plan,
      ];
      const result = await cli(args);
      if (result.code !== 0) throw new Error(`meridian users create failed: ${result.stderr}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  return waitForValue(check, what, timeoutMs, 100);
}
