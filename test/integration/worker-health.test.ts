import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { openTestPostgres, postgresAvailable, redisUrl } from '../harness/db.ts';
import { waitFor } from '../harness/wait.ts';

const busPrefix = `meridian:test:${randomBytes(4).toString('hex')}:bus:`;

const bin = join(process.cwd(), 'bin/meridian.mjs');

/** A `--role worker` process serves no API but its health and metrics, on MERIDIAN_WORKER_PORT. */
describe.runIf(postgresAvailable() && redisUrl())('worker health port on PostgreSQL and Redis', () => {
  let handle: (DbHandle & { url: string }) | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await handle?.close();
  });

  it('answers /healthz, /readyz (ready once warmed up) and /metrics with component gauges', async () => {
    handle = await openTestPostgres();
    child = spawn(process.execPath, [bin, 'serve', '--role', 'worker'], {
      env: {
        ...process.env,
        DATABASE_URL: handle.url,
        REDIS_URL: redisUrl()!,
        // Its own bus channels: other suites' servers share this Redis, and pub/sub ignores the database number.
        MERIDIAN_BUS_PREFIX: busPrefix,
        MERIDIAN_WORKER_PORT: '0',
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        LOG_LEVEL: 'info',
      },
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const address = await waitFor(
      async () => /health and metrics at (http:\/\/\S+)/.exec(out)?.[1],
      'the worker',
      150_000,
    );
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    const statuses: number[] = [];
    const report = await waitFor(
      async () => {
        const res = await fetch(`${address}/readyz`);
        statuses.push(res.status);
        const body = await res.json();
        // Ready, and the model job (started once its lease is won) has warmed up and refreshed.
        return res.status === 200 && body.components.model?.status === 'ok' ? body : undefined;
      },
      'the worker to be ready',
      150_000,
    );
    expect(report.components.storage).toEqual({ status: 'ok' });
    expect(report.components.model.status).toBe('ok');
    // The health watcher samples every 10 s: the model's figure appears with the first sample after warm-up.
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${address}/metrics`)).text();
        return text.includes('meridian_component_detail{component="model",detail="lastRefreshAgeSeconds"}')
          ? text
          : undefined;
      },
      'the model gauge',
      30_000,
    );
    expect(metrics).toMatch(/meridian_component_status\{component="storage"\} 2/);
    expect(metrics).toMatch(/meridian_component_status\{component="model"\} 2/);
    // Warming up was said once, as information, and nothing was logged as a warning about it.
    expect(out.match(/model warming up/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(out.split('\n').filter((l) => l.includes('"level":40') && l.includes('model'))).toEqual([]);
    expect((await fetch(`${address}/nope`)).status).toBe(404);
    // A DNS-rebinding page (its own name as Host) reads nothing here, metrics included.
    const foreign = await new Promise<{ status: number; type: string; code: string }>((resolve, reject) => {
      const req = httpRequest(`${address}/metrics`, { headers: { host: 'rebind.example' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: String(res.headers['content-type']),
            code: JSON.parse(body).code,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(foreign).toEqual({ status: 421, type: 'application/problem+json', code: 'misdirected_request' });
  }, 240_000);
});
