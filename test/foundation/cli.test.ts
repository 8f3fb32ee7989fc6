import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = join(process.cwd(), 'bin/meridian.mjs');
// This suite is about the CLI, not the market: a small simulated market keeps server start-up short.
const light = { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '1' };

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

// Every server this suite starts, so that none outlives it even when a test times out.
const servers = new Set<ChildProcess>();

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
  });
  servers.add(child);
  let out = '';
  // The bootstrap block (if any) is printed before the "running at" line, so that line means all is out.
  const ready = new Promise<{ address: string; token: string | undefined; output: string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 150_000);
      child.stdout.on('data', (d) => {
        out += d;
        const address = /running at (http:\/\/\S+)/.exec(out)?.[1];
        if (address) {
          clearTimeout(timer);
          resolve({ address, token: firstStartToken(env.MERIDIAN_DATA_DIR!), output: out });
        }
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
    },
  );
  return { child, ready };
}

/** The bootstrap admin's token, from the 0600 file a first start writes in the data folder (never stdout). */
function firstStartToken(dataDir: string): string | undefined {
  const file = join(dataDir, 'first-start-credentials.txt');
  return existsSync(file) ? /API token: (mrd_\S+)/.exec(readFileSync(file, 'utf8'))?.[1] : undefined;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });

describe('operator CLI (embedded storage)', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'meridian-cli-'));
    env = { MERIDIAN_DATA_DIR: join(dir, 'data'), ...light };
  });
  afterAll(async () => {
    for (const child of servers) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the split roles where they cannot work, naming what is missing', async () => {
    const embedded = await run(['serve', '--role', 'api'], env);
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toMatch(/--role api needs PostgreSQL \(DATABASE_URL\)/);
    const noRedis = await run(['serve', '--role', 'worker'], {
      ...env,
      DATABASE_URL: 'postgres://127.0.0.1:5432/test',
      REDIS_URL: '',
    });
    expect(noRedis.code).toBe(2);
    expect(noRedis.stderr).toMatch(/--role worker needs REDIS_URL/);
  });

  it('works while the server is stopped, and hands work to it while it runs', async () => {
    expect((await run(['migrate'], env)).code).toBe(0);
    const created = await run(
      [
        'users',
        'create',
        '--email',
        'Ops@Example.com',
        '--role',
        'member',
        '--password',
        'long-enough-password',
      ],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('ops@example.com (member, standard)');

    const token = await run(
      ['tokens', 'create', '--email', 'ops@example.com', '--name', 'bot', '--expires-in', '30d'],
      env,
    );
    expect(token.code).toBe(0);
    const lines = token.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^mrd_[0-9A-Za-z]{38}$/);

    const bad = await run(['users', 'create', '--email', 'x@y.zz', '--role', 'wizard'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('viewer, member, admin');

    const server = startServer(env);
    try {
      const { address, token: bootstrapToken } = await server.ready;
      expect(bootstrapToken).toBeUndefined(); // users exist → no bootstrap admin
      const me = await fetch(`${address}/api/account`, {
        headers: { authorization: `Bearer ${lines.at(-1)}` },
      });
      expect((await me.json()).email).toBe('ops@example.com');
    } finally {
      await stop(server.child);
    }
  }, 240_000);

  it('prints the admin and a token on first start, and lets the CLI run while the server holds the store', async () => {
    const fresh = { MERIDIAN_DATA_DIR: join(dir, 'fresh'), ...light };
    const server = startServer(fresh);
    try {
      const { address, token, output } = await server.ready;
      // Written to a 0600 file, never to stdout (here a pipe, not a terminal) where logs are kept.
      expect(token).toMatch(/^mrd_/);
      expect(output).not.toContain(token!);
      expect(output).not.toContain('password:');
      expect(statSync(join(fresh.MERIDIAN_DATA_DIR, 'first-start-credentials.txt')).mode & 0o777).toBe(0o600);
      const me = await fetch(`${address}/api/account`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).role).toBe('admin');

      const second = await run(['serve'], fresh);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('in use by another Meridian process');

      const handed = await run(['users', 'create', '--email', 'live@example.com', '--role', 'viewer'], fresh);
      expect(handed.code).toBe(0);
      expect(handed.stdout).toContain('live@example.com (viewer, standard)');
      const minted = await run(['tokens', 'create', '--email', 'live@example.com', '--name', 'x'], fresh);
      const liveToken = minted.stdout.trim().split('\n').at(-1)!;
      expect(
        (await fetch(`${address}/api/account`, { headers: { authorization: `Bearer ${liveToken}` } })).status,
      ).toBe(200);
      const id = /created token (tok_\S+)/.exec(minted.stderr)![1]!;
      expect((await run(['tokens', 'revoke', '--id', id], fresh)).code).toBe(0);
      expect(
        (await fetch(`${address}/api/account`, { headers: { authorization: `Bearer ${liveToken}` } })).status,
      ).toBe(401);
    } finally {
      await stop(server.child);
    }
  }, 240_000);
});
