import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/**
 * The hot lane answers the most frequent GETs on node:http directly. Over real HTTP (the lane sits in front of
 * Fastify's handler, so `inject` never reaches it): the same container served once with the lane and once
 * without must give the same status, headers and bytes, the lane must really be taken for the plain requests,
 * and every other case must reach Fastify unchanged.
 */
const hotPaths = [
  '/api/account',
  '/api/market-data',
  '/api/predictions?symbol=BTCUSDT&horizon=1h',
  '/api/predictions?symbol=BTCUSDT&horizon=1h&granularity=1m&limit=96&include=quantiles',
  '/api/predictions?symbol=ETHUSDT&horizon=15m&include=quantiles,outcome,modelVersion,backfilled&limit=4',
];
// Per-request values: a fresh request id, the remaining count of the rate limit, the date.
const perRequest = new Set(['x-request-id', 'ratelimit', 'date']);

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

async function hotCount(t: TestApp, route: string): Promise<number> {
  const metric = await t.container.metrics.hotLane.get();
  return metric.values.find((v) => v.labels.route === route)?.value ?? 0;
}

function headersOf(response: Response): Record<string, string> {
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!perRequest.has(name)) kept[name] = value;
  });
  return kept;
}

describe('hot lane', () => {
  let t: TestApp;
  let plain: App;
  let user: TestUser;
  let withLane: string;
  let withoutLane: string;

  beforeAll(async () => {
    // A simulated market with history, so the snapshot is large enough to be compressed.
    t = await createTestApp({
      env: {
        MERIDIAN_RATE_LIMIT_STANDARD: '1000',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_SIM_SEED: '3',
      },
      container: { clock: manualClock(Date.UTC(2026, 0, 10, 12, 0, 30)) },
    });
    await t.container.market.service.start();
    await t.container.market.service.windowsLoaded();
    t.container.market.service.tickNow();
    // One model refresh, so the predictions pages carry datapoints (and quantiles) to compare.
    expect((await t.container.predictions.service.refresh()).length).toBeGreaterThan(0);
    plain = await buildServer(t.container, { logLevel: 'silent', hotLane: false });
    withLane = await listen(t.app);
    withoutLane = await listen(plain);
    user = await t.user('member');
    // The first request of a token resolves it from storage (through Fastify); later ones find it cached.
    expect((await fetch(`${withLane}/api/account`, { headers: user.auth })).status).toBe(200);
  });

  /**
   * The market ticks every 250 ms on a real timer, so two requests can straddle a new snapshot. Asks the plain
   * server on both sides of the lane's request and keeps the first try where those two agree (same ETag and
   * bytes): the lane's answer is then compared with a snapshot it must have seen too.
   */
  async function onOneSnapshot(path: string, headers: Record<string, string>) {
    for (let tries = 1; ; tries++) {
      const first = await fetch(`${withoutLane}${path}`, { headers });
      const hot = await fetch(`${withLane}${path}`, { headers });
      const full = await fetch(`${withoutLane}${path}`, { headers });
      const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await full.clone().arrayBuffer())];
      if ((first.headers.get('etag') === full.headers.get('etag') && a.equals(b)) || tries === 5)
        return { hot, full, tries };
    }
  }
  afterAll(async () => {
    await plain.close();
    await t.container.market.service.stop();
    await t.close();
  });

  it.each(hotPaths)(
    '%s: the same status, headers and bytes as through Fastify, and the lane was taken',
    async (path) => {
      const route = path.split('?')[0]!;
      const before = await hotCount(t, route);
      const { hot, full, tries } = await onOneSnapshot(path, user.auth);
      expect(await hotCount(t, route)).toBe(before + tries);
      expect(hot.status).toBe(200);
      expect(full.status).toBe(200);
      expect(headersOf(hot)).toEqual(headersOf(full));
      for (const name of ['x-request-id', 'ratelimit', 'date']) expect(hot.headers.get(name)).toBeTruthy();
      const body = Buffer.from(await hot.arrayBuffer());
      expect(body).toEqual(Buffer.from(await full.arrayBuffer()));
      if (path.includes('include=quantiles')) {
        const page = JSON.parse(body.toString()) as { data: Array<{ quantiles?: unknown }> };
        expect(page.data.length).toBeGreaterThan(0);
        expect(page.data[0]!.quantiles).toBeDefined();
      }
    },
  );

  it.each(['gzip', 'br', 'identity'])(
    'market data with Accept-Encoding: %s: the same encoding, ETag and bytes on both paths',
    async (encoding) => {
      const headers = { ...user.auth, 'accept-encoding': encoding };
      const before = await hotCount(t, '/api/market-data');
      const { hot, full, tries } = await onOneSnapshot('/api/market-data', headers);
      expect(await hotCount(t, '/api/market-data')).toBe(before + tries);
      expect(hot.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      expect(headersOf(hot)).toEqual(headersOf(full));
      expect(Buffer.from(await hot.arrayBuffer())).toEqual(Buffer.from(await full.arrayBuffer()));
    },
  );

  it('keeps a sane incoming request id, and counts the request in the metrics and the API usage', async () => {
    const series = () =>
      t.container.metrics.registry
        .getSingleMetricAsString('meridian_http_requests_total')
        .then((text) =>
          text.split('\n').find((l) => l.includes('route="/api/account"') && l.includes('status="200"')),
        );
    const before = await series();
    const response = await fetch(`${withLane}/api/account`, {
      headers: { ...user.auth, 'x-request-id': 'trace-42' },
    });
    expect(response.headers.get('x-request-id')).toBe('trace-42');
    const count = (line: string | undefined) => Number(line?.split(' ').pop() ?? 0);
    expect(count(await series())).toBe(count(before) + 1);
  });

  it('hands everything but the plain case to Fastify, which answers it as before', async () => {
    const before = await hotCount(t, '/api/predictions');
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/api/predictions?symbol=btcusdt&horizon=1h', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&include=nonsense', user.auth, 400],
      ['/api/predictions?symbol=BTC%55SDT&horizon=1h', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=abc', user.auth, 400],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=0', user.auth, 400],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=-5', user.auth, 400],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=500', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=096', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&limit=1e400', user.auth, 400],
      [
        `/api/predictions?symbol=BTCUSDT&horizon=1h&include=${'quantiles,'.repeat(10)}outcome`,
        user.auth,
        400,
      ],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&granularity=2m', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&to=2026-01-10T12:00:00Z', user.auth, 200],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h&include=quantiles&include=outcome', user.auth, 400],
      [
        '/api/predictions?symbol=BTCUSDT&horizon=1h',
        { ...user.auth, origin: 'http://elsewhere.example' },
        200,
      ],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h', { authorization: 'Bearer mrd_nope' }, 401],
      ['/api/predictions?symbol=BTCUSDT&horizon=1h', {}, 401],
    ];
    for (const [path, headers, status] of cases) {
      const response = await fetch(`${withLane}${path}`, { headers });
      expect(response.status, path).toBe(status);
      if (status >= 400) expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
    const normalized = await fetch(`${withLane}/api/predictions?symbol=btcusdt&horizon=1h`, {
      headers: user.auth,
    });
    expect(normalized.headers.get('meridian-normalized')).toContain('symbol');
    expect(await hotCount(t, '/api/predictions')).toBe(before);
  });

  it('on one keep-alive connection: each header is its own token, and a revocation applies at once', async () => {
    // The lane keeps, per connection, the header it last admitted and its token's hash: a second token on the
    // same connection must be answered as its own account, and a revoked token refused on its next request.
    const first = await t.user('member');
    const second = await t.user('member');
    const connection = new Client(withLane, { pipelining: 1 });
    const account = async (auth: Record<string, string>) => {
      const { statusCode, body } = await connection.request({
        path: '/api/account',
        method: 'GET',
        headers: auth,
      });
      const json = (await body.json()) as { id?: string; type?: string };
      return { statusCode, id: json.id, type: json.type };
    };
    try {
      expect(await account(first.auth)).toMatchObject({ statusCode: 200, id: first.id });
      const before = await hotCount(t, '/api/account');
      expect(await account(first.auth)).toMatchObject({ statusCode: 200, id: first.id });
      expect(await hotCount(t, '/api/account')).toBe(before + 1);
      await account(second.auth);
      expect(await account(second.auth)).toMatchObject({ statusCode: 200, id: second.id });
      expect(await account(first.auth)).toMatchObject({ statusCode: 200, id: first.id });
      await t.container.accounts.revokeToken(first.id, first.tokenId);
      const refused = await account(first.auth);
      expect(refused.statusCode).toBe(401);
      expect(refused.type).toContain('invalid_token');
      expect(await account(second.auth)).toMatchObject({ statusCode: 200, id: second.id });
    } finally {
      await connection.close();
    }
  });

  it('a token without the permission gets the 403 problem from the full pipeline', async () => {
    const viewer = await t.user('member', { permissions: ['account:read'] });
    await fetch(`${withLane}/api/account`, { headers: viewer.auth });
    const before = await hotCount(t, '/api/market-data');
    const response = await fetch(`${withLane}/api/market-data`, { headers: viewer.auth });
    expect(response.status).toBe(403);
    expect(await hotCount(t, '/api/market-data')).toBe(before);
  });
});

describe('hot lane and the rate limit', () => {
  it('a request over the limit is charged once and answered 429 by the full pipeline', async () => {
    const t = await createTestApp({ env: { MERIDIAN_RATE_LIMIT_STANDARD: '3' } });
    try {
      const base = await listen(t.app);
      const user = await t.user('member');
      const states: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${base}/api/account`, { headers: user.auth });
        states.push(`${response.status} ${response.headers.get('ratelimit')?.split(';')[1]}`);
        if (response.status === 429) {
          expect(response.headers.get('content-type')).toContain('application/problem+json');
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      // Three served (the first through Fastify, the others on the lane), then refused: one unit each.
      expect(states).toEqual(['200 r=2', '200 r=1', '200 r=0', '429 r=0', '429 r=0']);
      expect(await hotCount(t, '/api/account')).toBe(2);
    } finally {
      await t.close();
    }
  });
});
