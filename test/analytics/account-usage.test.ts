import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';

type ByClient = {
  client: string;
  tokenId: string | null;
  tokenName: string | null;
  oauthClient: { id: string; name: string } | null;
  requests: number;
  rateLimited: number;
};

describe('GET /api/account/usage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MERIDIAN_RATE_LIMIT_STANDARD: '8' } });
  });
  afterAll(async () => t?.close());

  it("tells the console's requests from each token's, with the quota's reset, over 24 h and 30 days", async () => {
    const user = await t.user('member');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.statusCode).toBe(200);
    const console = { cookie: `meridian_session=${login.cookies[0]!.value}` };
    for (let i = 0; i < 3; i++)
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth })).statusCode,
      ).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/account', headers: console })).statusCode).toBe(
        200,
      );
    // The window of 8 is full after three more; the next is a 429, counted for the token.
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth });
    const refused = await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth });
    expect(refused.statusCode).toBe(429);

    // The usage request itself is refused too (the window is full) — read it through the service instead.
    const before = Date.now();
    const usage = await t.container.portfolio.analytics.usage({
      accountId: user.id,
      plan: 'standard',
      rateLimit: 8,
    });
    expect(usage.quota).toMatchObject({ limit: 8, windowSeconds: 60, used: 8, remaining: 0 });
    const resetIn = Date.parse(usage.quota.resetAt) - before;
    expect(resetIn).toBeGreaterThan(50_000);
    expect(resetIn).toBeLessThanOrEqual(61_000);
    expect(usage.currentWindow.byEndpoint).toEqual([
      { endpoint: 'GET /api/portfolio', requests: 7, rateLimited: 1 },
      { endpoint: 'GET /api/account', requests: 2, rateLimited: 0 },
    ]);
    expect(Date.parse(usage.currentWindow.from)).toBeGreaterThan(before - 61_000);
    for (const period of [usage.currentWindow, usage.last24h, usage.last30d]) {
      expect(period).toMatchObject({ requests: 9, rateLimited: 1 });
      const byClient = Object.fromEntries(period.byClient.map((c: ByClient) => [c.client, c]));
      expect(byClient.token).toEqual({
        client: 'token',
        tokenId: user.tokenId,
        tokenName: expect.any(String),
        oauthClient: null,
        requests: 7,
        rateLimited: 1,
      });
      expect(byClient.console).toEqual({
        client: 'console',
        tokenId: null,
        tokenName: null,
        oauthClient: null,
        requests: 2,
        rateLimited: 0,
      });
      expect(period.byEndpoint).toContainEqual({
        endpoint: 'GET /api/portfolio',
        requests: 7,
        rateLimited: 1,
      });
    }
    // Once flushed, the same figures come from storage.
    await t.container.portfolio.usage.flush();
    const stored = await t.container.portfolio.analytics.usage({
      accountId: user.id,
      plan: 'standard',
      rateLimit: 8,
    });
    expect(stored.last30d.requests).toBe(9);
    expect(stored.last24h.byClient).toEqual(usage.last24h.byClient);
    expect(stored.currentWindow.byEndpoint).toEqual(usage.currentWindow.byEndpoint);
  });

  it('answers over HTTP with the schema, needs account:read, and is never cached', async () => {
    const user = await t.user('viewer');
    const res = await t.app.inject({ method: 'GET', url: '/api/account/usage', headers: user.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'currentWindow',
      'flushIntervalMs',
      'generatedAt',
      'last24h',
      'last30d',
      'plan',
      'quota',
    ]);
    expect(body.quota.remaining).toBe(8 - body.quota.used);
    const narrow = await t.user('member', { permissions: ['market:read'] });
    const denied = await t.app.inject({ method: 'GET', url: '/api/account/usage', headers: narrow.auth });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['content-type']).toContain('application/problem+json');
    expect((await t.app.inject({ method: 'GET', url: '/api/account/usage' })).statusCode).toBe(401);
  });
});
