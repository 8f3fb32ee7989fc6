import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisRateLimiter } from '../../src/adapters/limiter/redis.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { openTestDatabase, postgresAvailable, redisUrl } from '../harness/db.ts';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import { fastHasher } from '../harness/app.ts';

describe('per-account rate limit (embedded)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves 120 a minute across all of an account’s tokens, then 429 with Retry-After', async () => {
    const user = await t.user('member');
    const second = await t.container.accounts.createToken(user.id, { name: 'second' });
    const headers = [user.auth, { authorization: `Bearer ${second.token}` }];
    const codes: number[] = [];
    for (let i = 0; i < 125; i++) {
      const res = await t.app.inject({ url: '/api/account', headers: headers[i % 2] });
      codes.push(res.statusCode);
      if (i === 0) {
        expect(res.headers['ratelimit-policy']).toBe('"account";q=120;w=60');
        expect(res.headers.ratelimit).toBe('"account";r=119;t=0');
      }
      if (i === 124) {
        expect(res.json().code).toBe('rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.headers.ratelimit).toMatch(/^"account";r=0;t=\d+$/);
      }
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(120);
    expect(codes.slice(120).every((c) => c === 429)).toBe(true);
  });

  it('honours the pro plan and a per-account override', async () => {
    const user = await t.user('viewer');
    await t.container.accounts.setPlan(user.email, 'pro', 3);
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push((await t.app.inject({ url: '/api/account', headers: user.auth })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe.runIf(redisUrl())('rate limit shared through real Redis', () => {
  it('two app instances, 500 concurrent requests from one account: exactly 120 served', async () => {
    const url = redisUrl()!;
    const flush = new Redis(url);
    await flush.eval("for _,k in ipairs(redis.call('keys','meridian:rl:*')) do redis.call('del',k) end", 0);
    const db = await openTestDatabase(postgresAvailable() ? 'postgres' : 'pglite');
    const config = loadConfig({ LOG_LEVEL: 'silent', REDIS_URL: url });
    const a = await buildContainer(config, { db, hasher: fastHasher, skipMigrations: true });
    const b = await buildContainer(config, { db, hasher: fastHasher, skipMigrations: true });
    const [appA, appB] = await Promise.all([
      buildServer(a, { logLevel: 'silent' }),
      buildServer(b, { logLevel: 'silent' }),
    ]);
    try {
      const { user } = await a.accounts.createUser({
        email: `rl-${Date.now()}@example.com`,
        role: 'member',
        password: 'long enough pw',
      });
      const { token } = await a.accounts.createToken(user.id, { name: 'load' });
      await Promise.all([
        appA.listen({ port: 0, host: '127.0.0.1' }),
        appB.listen({ port: 0, host: '127.0.0.1' }),
      ]);
      const ports = [appA, appB].map((app) => (app.server.address() as { port: number }).port);
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          fetch(`http://127.0.0.1:${ports[i % 2]}/api/account`, {
            headers: { authorization: `Bearer ${token}` },
          }).then((r) => r.status),
        ),
      );
      expect(results.filter((s) => s === 200)).toHaveLength(120);
      expect(results.filter((s) => s === 429)).toHaveLength(380);
      expect(a.limiter.degraded).toBe(false);
    } finally {
      await Promise.all([appA.close(), appB.close()]);
      await a.close();
      await b.close();
      await db.close();
      flush.disconnect();
    }
  });

  it('keeps answering when Redis is unreachable, enforcing locally, and says so', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => {});
    const changes: boolean[] = [];
    const limiter = redisRateLimiter(dead, systemClock, { onDegradedChange: (d) => changes.push(d) });
    const started = Date.now();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push((await limiter.consume('acct:x', 3, 60_000)).allowed);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(decisions).toEqual([true, true, true, false]);
    expect(limiter.degraded).toBe(true);
    expect(changes).toEqual([true]);
    dead.disconnect();
  });

  it('reports a lost Redis in /readyz and /metrics without failing requests', async () => {
    const t = await createTestApp({ env: { REDIS_URL: redisUrl()! } });
    try {
      const user = await t.user('member');
      expect((await t.app.inject({ url: '/readyz' })).json().status).toBe('ready');
      t.container.redis!.disconnect();
      const res = await t.app.inject({ url: '/api/account', headers: user.auth });
      expect(res.statusCode).toBe(200);
      const ready = (await t.app.inject({ url: '/readyz' })).json();
      expect(ready.status).toBe('degraded');
      expect(ready.checks.redis).toContain('unreachable');
      expect((await t.app.inject({ url: '/metrics' })).body).toMatch(/meridian_rate_limit_degraded 1/);
    } finally {
      await t.close();
    }
  });
});
