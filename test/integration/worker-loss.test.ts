import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { openTestPostgres, postgresAvailable, redisUrl } from '../harness/db.ts';
import { waitFor } from '../harness/wait.ts';

const busPrefix = `meridian:test:${randomBytes(4).toString('hex')}:bus:`;

const bin = join(process.cwd(), 'bin/meridian.mjs');

interface Running {
  child: ChildProcess;
  output(): string;
}

/** Checks of the replica poll at most twice a second: its rate limit counts every request of the test. */
const THROTTLED_MS = 500;

/**
 * Scaled mode on the real PostgreSQL and Redis, as operators run it: one `--role api` replica and one
 * `--role worker`, separate processes. The worker is killed with SIGKILL (no goodbye on the bus); the
 * replica must notice from the data's age and the missing heartbeat alone.
 */
describe.runIf(postgresAvailable() && redisUrl())('losing the worker in scaled mode', () => {
  let handle: (DbHandle & { url: string }) | undefined;
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-worker-loss-'));
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await handle?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (role: 'api' | 'worker', env: Record<string, string>): Running => {
    const child = spawn(process.execPath, [bin, 'serve', '--role', role], {
      env: {
        ...process.env,
        DATABASE_URL: handle!.url,
        REDIS_URL: redisUrl()!,
        // Its own bus channels: other suites' servers share this Redis, and pub/sub ignores the database number.
        MERIDIAN_BUS_PREFIX: busPrefix,
        // Where a first start writes the admin's credentials (never to stdout).
        MERIDIAN_DATA_DIR: dataDir,
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_MARKET_STALE_MS: '3000',
        MERIDIAN_MODEL_REFRESH_MS: '2000',
        LOG_LEVEL: 'info',
        ...env,
      },
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    return { child, output: () => out };
  };

  it('kill -9 the worker: the replica says stale and degraded (heartbeat missing); a new worker makes it fresh again', async () => {
    handle = await openTestPostgres();
    const worker = start('worker', { MERIDIAN_WORKER_PORT: '0' });
    const credentials = () => {
      const file = join(dataDir, 'first-start-credentials.txt');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    const token = await waitFor(
      async () => /API token:\s+(\S+)/.exec(credentials())?.[1],
      'the bootstrap token',
      150_000,
    );
    // A worker serves no API: its first-start hint points at an API replica, not at an address of its own.
    expect(credentials()).toContain('This worker serves no API');
    expect(credentials()).not.toMatch(/curl .* http:\/\/127\.0\.0\.1/);
    const api = start('api', { PORT: '0' });
    const address = await waitFor(
      async () => /Meridian \(api\) running at (http:\/\/\S+)/.exec(api.output())?.[1],
      'the api replica',
      150_000,
    );
    const auth = { authorization: `Bearer ${token}` };
    const readyz = async () =>
      (await (await fetch(`${address}/readyz`)).json()) as {
        status: string;
        components: Record<
          string,
          { status: string; reason?: string; details?: Record<string, number | null> }
        >;
      };
    const marketData = async () => {
      const res = await fetch(`${address}/api/market-data`, { headers: auth });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        data: Array<{ symbol: string; venues: Array<{ stale: boolean }> }>;
      };
      return { stale: res.headers.get('meridian-stale'), asOf: res.headers.get('meridian-as-of'), body };
    };
    const predictionsStale = async () =>
      (await fetch(`${address}/api/predictions?symbol=BTCUSDT&horizon=1h`, { headers: auth })).headers.get(
        'meridian-stale',
      );

    // Fresh while the worker runs: data, forecasts, and a worker heard on the bus (a beat every 5 s).
    await waitFor(
      async () => {
        const [m, p, r] = await Promise.all([marketData(), predictionsStale(), readyz()]);
        return m.stale === 'false' &&
          m.body.data.length === 2 &&
          p === 'false' &&
          r.components.worker?.status === 'ok' &&
          typeof r.components.worker.details?.heartbeatAgeSeconds === 'number'
          ? true
          : undefined;
      },
      'fresh answers from the replica',
      180_000,
      THROTTLED_MS,
    );
    expect((await marketData()).body.data.every((i) => i.venues.some((v) => !v.stale))).toBe(true);

    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    const frozenAsOf = (await marketData()).asOf;
    // Within the windows (3 s market staleness, 2.5 refreshes of 2 s, 3 missed beats of 5 s) every answer says so.
    let lastReady: unknown;
    const report = await waitFor(
      async () => {
        const r = await readyz();
        lastReady = r;
        return r.status === 'degraded' && r.components.worker?.status === 'degraded' ? r : undefined;
      },
      'the replica to report the worker missing',
      40_000,
      THROTTLED_MS,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last /readyz: ${JSON.stringify(lastReady)}`);
    });
    expect(report.components.worker!.reason, api.output().slice(-3000)).toMatch(
      /no worker heartbeat for \d+ s/,
    );
    expect(report.components.market?.status).toBe('degraded');
    const stale = await marketData();
    expect(stale.stale).toBe('true');
    // The As-Of is the data's own time, not the time of the answer: it stopped when the worker did.
    expect(stale.asOf).toBe(frozenAsOf);
    expect(stale.body.data.length).toBe(2);
    for (const item of stale.body.data) expect(item.venues.every((v) => v.stale)).toBe(true);
    expect(await predictionsStale()).toBe('true');
    expect(Date.now() - killedAt).toBeLessThan(40_000);
    const metrics = await (await fetch(`${address}/metrics`)).text();
    expect(metrics).toMatch(/meridian_worker_heartbeat_age_seconds \d/);
    expect(metrics).toMatch(/meridian_bus_lag_seconds \d/);

    // A new worker: fresh again, and the replica is ready.
    start('worker', { MERIDIAN_WORKER_PORT: '0' });
    await waitFor(
      async () => {
        const [m, p, r] = await Promise.all([marketData(), predictionsStale(), readyz()]);
        return m.stale === 'false' && p === 'false' && r.components.worker?.status === 'ok'
          ? true
          : undefined;
      },
      'fresh answers after a new worker',
      180_000,
      THROTTLED_MS,
    );
    const fresh = await marketData();
    for (const item of fresh.body.data) expect(item.venues.some((v) => !v.stale)).toBe(true);
  }, 480_000);
});
