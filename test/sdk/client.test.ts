import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MarketSnapshot,
  MeridianProblemError,
  type PushStatus,
  createMeridianClient,
} from '../../packages/client/src/index.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import type { Horizon } from '../../src/modules/identifiers/index.ts';
import type { PredictionDatapoint } from '../../src/modules/predictions/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';

const env = { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '2' };

describe('@meridian/client against a real server', () => {
  let t: TestApp;
  let user: TestUser;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ env });
    user = await t.user('member');
    await t.container.market.job.start();
    await t.container.market.service.windowsLoaded();
    // The models' first fit over the working window (as a worker's start does): no forecasts before it.
    t.container.predictions.service.warmUp();
    await t.container.predictions.service.refresh();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  }, 120_000);
  afterAll(async () => {
    await t.container.market.job.stop();
    await t.close();
  });

  it('makes a typed call of every read endpoint, each with its rate-limit reading', async () => {
    const client = createMeridianClient({ baseUrl, token: user.token });
    const market = await client.GET('/api/market-data', { params: { query: { symbols: 'BTCUSDT' } } });
    expect(market.data.data[0]!.symbol).toBe('BTCUSDT');
    expect(market.rateLimit).toMatchObject({ limit: 120 });
    expect(market.rateLimit!.remaining).toBeLessThan(120);
    expect(market.rateLimit!.reset).toBeInstanceOf(Date);
    const history = await client.GET('/api/market-history', {
      params: { query: { symbol: 'ETHUSDT', interval: '1h', limit: 3 } },
    });
    expect(history.data.data.length).toBeGreaterThan(0);
    expect(typeof history.data.data[0]!.close).toBe('number');
    const predictions = await client.GET('/api/predictions', { params: { query: { symbol: 'BTCUSDT' } } });
    expect(predictions.data.data.at(-1)!.horizon).toBe('1h');
    const outlook = await client.GET('/api/predictions/ai-outlook', {
      params: { query: { symbol: 'BTCUSDT' } },
    });
    expect(outlook.data).toBeTypeOf('object');
    expect((await client.GET('/api/predictions/performance')).data.data).toBeInstanceOf(Array);
    expect((await client.GET('/api/onchain/flows')).data.data).toBeInstanceOf(Array);
    expect((await client.GET('/api/account')).data.email).toBe(user.email);
    expect((await client.GET('/api/portfolio')).data.holdings).toEqual([]);
    expect((await client.GET('/api/portfolio/rows')).data.data).toEqual([]);
    expect((await client.GET('/api/portfolio/imports')).data.data).toEqual([]);
    expect((await client.GET('/api/dashboard/analytics')).data).toBeTypeOf('object');
    expect((await client.GET('/api/alerts')).data.data).toEqual([]);
    expect((await client.GET('/api/webhooks')).data.data).toEqual([]);
  });

  it('predictions.outlooks: every symbol in one request, an unsupported one as its own error entry', async () => {
    const client = createMeridianClient({ baseUrl, token: user.token });
    const { data } = await client.predictions.outlooks(['eth-usdt', 'BTCUSDT', 'NOPEUSDT']);
    expect(data.data.map((e) => [e.requested, e.symbol])).toEqual([
      ['eth-usdt', 'ETHUSDT'],
      ['BTCUSDT', 'BTCUSDT'],
      ['NOPEUSDT', null],
    ]);
    const [eth, , nope] = data.data;
    expect(eth && 'outlook' in eth && eth.outlook.symbol).toBe('ETHUSDT');
    expect(eth).toMatchObject({ source: 'simulated', stale: false, backfilling: false });
    expect(nope && 'error' in nope && nope.error.code).toBe('unsupported_symbol');
    const one = await client.predictions.outlook('ETHUSDT');
    expect(eth && 'outlook' in eth && eth.outlook).toEqual(one.data);
    const strict = await client.predictions
      .outlooks(['BTCUSDT', 'NOPEUSDT'], { strict: true })
      .catch((e) => e);
    expect(strict).toBeInstanceOf(MeridianProblemError);
    expect(strict).toMatchObject({ status: 400, code: 'unsupported_symbol' });
    expect((strict as MeridianProblemError).detail).toContain('"NOPEUSDT"');
  });

  it("market.subscribe: the subscribed symbols' snapshots with their provenance, from the connect on", async () => {
    const client = createMeridianClient({ baseUrl, token: user.token });
    const statuses: PushStatus[] = [];
    const snapshots = client.market.subscribe(
      { symbols: ['ETHUSDT'] },
      { onStatus: (status) => statuses.push(status) },
    );
    const first: MarketSnapshot = (await snapshots.next()).value;
    expect(first).toMatchObject({ type: 'snapshot', source: 'simulated', stale: false });
    expect(first.data.map((item) => item.symbol)).toEqual(['ETHUSDT']);
    expect(first.data[0]!.price).toBeGreaterThan(0);
    expect(statuses[0]).toEqual({ state: 'open', reconnects: 0 });
    await snapshots.return?.();
  });

  it('throws problems as MeridianProblemError with their fields', async () => {
    const client = createMeridianClient({ baseUrl, token: user.token });
    const error = await client
      .GET('/api/market-history', { params: { query: { symbol: 'NOPEUSDT', strict: true } } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(MeridianProblemError);
    expect(error).toMatchObject({
      status: 400,
      code: 'unsupported_symbol',
      type: '/problems/unsupported_symbol',
    });
    expect(error.detail).toContain('NOPEUSDT');
    const missing = await client
      .GET('/api/alerts/{id}', { params: { path: { id: 'alr_nope' } } })
      .catch((e) => e);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('sends an Idempotency-Key on portfolio imports: the same key replays instead of importing twice', async () => {
    const client = createMeridianClient({ baseUrl, token: user.token });
    const csv = 'asset,quantity\nBTC,0.5\n';
    const first = await client.portfolio.import(csv, { idempotencyKey: 'sdk-test-1' });
    expect(first.response.status).toBe(201);
    const again = await client.portfolio.import(csv, { idempotencyKey: 'sdk-test-1' });
    expect(again.data).toEqual(first.data);
    expect((await client.GET('/api/portfolio/rows')).data.data.length).toBe(1);
  });

  it('surfaces a 429 with the reset time, and waits and retries on it when asked', async () => {
    const limited = await createTestApp({ env: { ...env, MERIDIAN_RATE_LIMIT_STANDARD: '3' } });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(limited.app.server.address() as { port: number }).port}`;
      const viewer = await limited.user('viewer');
      const client = createMeridianClient({ baseUrl: url, token: viewer.token });
      for (let i = 0; i < 3; i++) await client.GET('/api/account');
      const error = await client.GET('/api/account').catch((e) => e);
      expect(error).toBeInstanceOf(MeridianProblemError);
      expect(error.status).toBe(429);
      expect(error.code).toBe('rate_limited');
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.rateLimit.remaining).toBe(0);
      expect(error.rateLimit.reset.getTime()).toBeGreaterThan(Date.now());
      // Opt-in: the retrying client waits for Retry-After and then succeeds.
      const patient = createMeridianClient({
        baseUrl: url,
        token: viewer.token,
        retryOn429: { maxWaitSeconds: 60 },
      });
      const ok = await patient.GET('/api/account');
      expect(ok.data.email).toBe(viewer.email);
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('the push client survives a server restart on the same port and resubscribes', async () => {
    const first = await createTestApp({ env });
    const member = await first.user('member');
    await first.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (first.app.server.address() as { port: number }).port;
    const statuses: PushStatus[] = [];
    const client = createMeridianClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: member.token,
      push: { initialDelayMs: 50, maxDelayMs: 500, onStatus: (s) => statuses.push(s) },
    });
    const stream = client.predictions.subscribe({ symbol: 'eth-usd', horizon: '1h' });
    const point = (symbol: string, horizon: Horizon): PredictionDatapoint => ({
      symbol,
      horizon,
      prediction: 101,
      baseline: 100,
      expectedMovePct: 1,
      confidence: 0.6,
      factors: { orderflow: 1, funding: 0, macro: 0, ai_residual: 0 },
      generatedAt: new Date().toISOString(),
    });
    const refresh = () => [point('BTCUSDT', '1h'), point('ETHUSDT', '1h'), point('ETHUSDT', '6h')];
    let second: App | undefined;
    try {
      await waitFor(async () => statuses.find((s) => s.state === 'open'), 'the first connection');
      const received = stream.next();
      // Published until the subscription is in place (the subscribe message is acknowledged asynchronously).
      const pump = setInterval(
        () => void first.container.bus.publish(topics.predictionsRefreshed, refresh()),
        200,
      );
      const before = await received.finally(() => clearInterval(pump));
      expect(
        before.value!.data.map((d: { symbol: string; horizon: string }) => `${d.symbol}/${d.horizon}`),
      ).toEqual(['ETHUSDT/1h']);

      // Restart: the HTTP/WebSocket server goes away (sockets closed) and a new one takes the same port,
      // over the same store (the token still exists), as after a deploy.
      await first.app.close();
      second = await buildServer(first.container, { logLevel: 'silent' });
      await second.listen({ port, host: '127.0.0.1' });
      await waitFor(
        async () => (statuses.filter((s) => s.state === 'open').length >= 2 ? true : undefined),
        'the reconnection',
        30_000,
      );
      expect(statuses.some((s) => s.state === 'reconnecting')).toBe(true);
      const after = stream.next();
      const pump2 = setInterval(
        () => void first.container.bus.publish(topics.predictionsRefreshed, refresh()),
        200,
      );
      const resumed = await after.finally(() => clearInterval(pump2));
      // Resubscribed: still only ETH 1h (a fresh connection without the subscription would get everything).
      expect(
        resumed.value!.data.map((d: { symbol: string; horizon: string }) => `${d.symbol}/${d.horizon}`),
      ).toEqual(['ETHUSDT/1h']);
    } finally {
      await stream.return!();
      await second?.close();
      await first.close();
    }
  }, 120_000);

  describe('examples/ run against the server', () => {
    const run = (script: string, args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', `examples/${script}`, ...args], {
          env: { ...process.env, MERIDIAN_URL: baseUrl, MERIDIAN_TOKEN: user.token },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.stderr.on('data', (d) => {
          stderr += d;
        });
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });

    beforeAll(() => {
      // The examples import the package as a user would: '@meridian/client' (the workspace link) → dist/.
      execFileSync('npm', ['run', 'build', '-w', '@meridian/client'], { stdio: 'ignore' });
    }, 120_000);

    it('forecast-bot prints the latest forecast and a live one', async () => {
      const bot = run('forecast-bot.ts', ['ETHUSDT', '1h', '1']);
      const pump = setInterval(() => void t.container.predictions.service.refresh(), 1_000);
      const result = await bot.finally(() => clearInterval(pump));
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines)
        expect(line).toMatch(/ETHUSDT 1h: [\d.]+ → [\d.]+ \([+-][\d.]+ %, confidence \d+ %\)$/);
    }, 120_000);

    it('import-portfolio imports a CSV file and prints the valuation; a bad file prints the row problems', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'meridian-sdk-'));
      writeFileSync(join(dir, 'good.csv'), 'asset,quantity,cost_basis\nETH,2,5000\nSOL,10,1500\n');
      writeFileSync(join(dir, 'bad.csv'), 'asset,quantity\nETH,two\n');
      const good = await run('import-portfolio.ts', [join(dir, 'good.csv')]);
      expect(good.code, good.stderr).toBe(0);
      expect(good.stdout).toContain('imported 2 rows: 2 new');
      const bad = await run('import-portfolio.ts', [join(dir, 'bad.csv')]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/400 validation_failed/);
      expect(bad.stderr).toContain('quantity');
    }, 120_000);
  });
});
