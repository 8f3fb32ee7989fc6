import { brotliDecompressSync } from 'node:zlib';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/**
 * The busiest requests — the account and a predictions page, bodies serialized ahead of time — over real HTTP
 * through the one request pipeline: every header an answer carries, the conditional and compressed variants,
 * the metrics and API usage they are counted in, and the per-connection token reuse of the auth plugin.
 */
const page = '/api/predictions?symbol=BTCUSDT&horizon=1h&include=quantiles';

describe('the request pipeline on the busiest routes', () => {
  let t: TestApp;
  let user: TestUser;
  let base: string;

  beforeAll(async () => {
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
    // One model refresh, so the page carries datapoints (large enough to be compressed).
    // The models' first fit over the working window (as a worker's start does): no forecasts before it.
    t.container.predictions.service.warmUp();
    expect((await t.container.predictions.service.refresh()).length).toBeGreaterThan(0);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    user = await t.user('member');
  }, 180_000);
  afterAll(async () => {
    await t.container.market.service.stop();
    await t.close();
  });

  const requestsCounted = async (route: string, status: number) => {
    const text = await t.container.metrics.registry.getSingleMetricAsString('meridian_http_requests_total');
    const line = text
      .split('\n')
      .find((l) => l.includes(`route="${route}"`) && l.includes(`status="${status}"`));
    return Number(line?.split(' ').pop() ?? 0);
  };

  it('answers the account with its fixed headers, a kept request id, the rate limit and an ETag', async () => {
    const counted = await requestsCounted('/api/account', 200);
    const usage = (await t.container.portfolio.usage.totals(user.id)).requests;
    const response = await fetch(`${base}/api/account`, {
      headers: { ...user.auth, 'x-request-id': 'trace-42' },
    });
    expect(response.status).toBe(200);
    expect((await response.json()) as { id: string }).toMatchObject({ id: user.id });
    const h = response.headers;
    expect(h.get('x-request-id')).toBe('trace-42');
    expect(h.get('content-type')).toBe('application/json; charset=utf-8');
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('content-security-policy')).toContain("default-src 'none'");
    expect(h.get('cache-control')).toBe('no-store');
    expect(h.get('vary')).toBe('Origin');
    expect(h.get('ratelimit-policy')).toBe('"account";q=1000;w=60');
    expect(h.get('ratelimit')).toMatch(/^"account";r=\d+;t=0$/);
    expect(h.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(h.get('access-control-allow-origin')).toBeNull();
    expect(await requestsCounted('/api/account', 200)).toBe(counted + 1);
    expect((await t.container.portfolio.usage.totals(user.id)).requests).toBe(usage + 1);
  });

  it('answers a predictions page 304 for its ETag', async () => {
    const plain = await fetch(`${base}${page}`, { headers: user.auth });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBeNull();
    expect(plain.headers.get('meridian-source')).toBeTruthy();
    const etag = plain.headers.get('etag')!;
    const counted = await requestsCounted('/api/predictions', 304);
    const unchanged = await fetch(`${base}${page}`, { headers: { ...user.auth, 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(await requestsCounted('/api/predictions', 304)).toBe(counted + 1);
  });

  it('compresses bytes serialized ahead of time, with `Vary: Origin, accept-encoding`', async () => {
    const client = new Client(base);
    try {
      const raw = await client.request({
        path: '/api/market-data',
        method: 'GET',
        headers: { ...user.auth, 'accept-encoding': 'gzip, br' },
      });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-encoding']).toBe('br');
      expect(raw.headers.vary).toBe('Origin, accept-encoding');
      const compressed = Buffer.from(await raw.body.arrayBuffer());
      const body = brotliDecompressSync(compressed);
      expect(compressed.length).toBeLessThan(body.length);
      expect((JSON.parse(body.toString()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('says what it normalized on every request of the same query, and refuses a bad one', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/api/predictions?symbol=btcusdt&horizon=1h`, {
        headers: user.auth,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('meridian-normalized')).toBe('symbol=btcusdt->BTCUSDT');
    }
    const canonical = await fetch(`${base}/api/predictions?symbol=BTCUSDT&horizon=1h`, {
      headers: user.auth,
    });
    expect(canonical.headers.get('meridian-normalized')).toBeNull();
    for (let i = 0; i < 2; i++) {
      const refused = await fetch(`${base}/api/predictions?symbol=BTCUSDT&horizon=1h&include=nonsense`, {
        headers: user.auth,
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('on one keep-alive connection: each header is its own token, and a revocation applies at once', async () => {
    // The auth plugin keeps, per connection, the header it last admitted and its token's hash: a second token
    // on the same connection must be answered as its own account, and a revoked token refused at once.
    const first = await t.user('member');
    const second = await t.user('member');
    const connection = new Client(base, { pipelining: 1 });
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
      expect(await account(first.auth)).toMatchObject({ statusCode: 200, id: first.id });
      expect(await account(second.auth)).toMatchObject({ statusCode: 200, id: second.id });
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
});

describe('the request pipeline and the rate limit', () => {
  it('charges each request once and answers 429 with the problem document', async () => {
    const t = await createTestApp({ env: { MERIDIAN_RATE_LIMIT_STANDARD: '3' } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
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
      expect(states).toEqual(['200 r=2', '200 r=1', '200 r=0', '429 r=0', '429 r=0']);
      expect((await t.container.portfolio.usage.totals(user.id)).rateLimited).toBe(2);
    } finally {
      await t.close();
    }
  });
});
