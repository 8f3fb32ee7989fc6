import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** CORS, compression, ETags and security headers: what browsers, caches and HTTP clients expect. */
describe('HTTP conventions', () => {
  let t: TestApp;
  let user: TestUser;
  const allowed = 'https://app.example.com';
  const other = 'https://evil.example.net';
  const clock = manualClock(Date.UTC(2026, 0, 10, 12, 0, 30));

  beforeAll(async () => {
    // A simulated market with two days of history, so snapshots and history pages are real-sized.
    t = await createTestApp({
      env: {
        MERIDIAN_CORS_ORIGINS: `${allowed}, https://second.example.org`,
        MERIDIAN_ALLOWED_HOSTS: 'meridian.internal',
        MERIDIAN_MARKET_HISTORY_DAYS: '2',
        MERIDIAN_SIM_SEED: '7',
      },
      container: { clock },
    });
    user = await t.user('member');
    await t.container.market.service.start();
    await t.container.market.service.windowsLoaded();
    t.container.market.service.tickNow();
  });
  afterAll(async () => {
    await t.container.market.service.stop();
    await t.close();
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/market-data',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });

    it('answers the preflight of a listed origin with what the browser needs', async () => {
      const res = await preflight(allowed);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(allowed);
      expect(String(res.headers['access-control-allow-headers'])).toContain('authorization');
      expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('gives an unlisted origin no CORS headers, on the preflight and on the request', async () => {
      const pre = await preflight(other);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await t.app.inject({ url: '/api/market-data', headers: { ...user.auth, origin: other } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('lets a listed origin read the answer and its rate-limit and tracing headers', async () => {
      const res = await t.app.inject({ url: '/api/market-data', headers: { ...user.auth, origin: allowed } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(allowed);
      const exposed = String(res.headers['access-control-expose-headers']);
      for (const name of ['ratelimit', 'retry-after', 'x-request-id', 'etag'])
        expect(exposed).toContain(name);
      expect(String(res.headers.vary)).toContain('Origin');
    });

    it("always allows the server's own origin (the console it serves)", async () => {
      const res = await t.app.inject({
        url: '/api/market-data',
        headers: { ...user.auth, host: 'meridian.internal:8080', origin: 'http://meridian.internal:8080' },
      });
      expect(res.headers['access-control-allow-origin']).toBe('http://meridian.internal:8080');
    });

    it('by default allows no other origin', async () => {
      const plain = await createTestApp();
      try {
        const res = await plain.app.inject({
          method: 'OPTIONS',
          url: '/api/market-data',
          headers: { origin: allowed, 'access-control-request-method': 'GET' },
        });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      } finally {
        await plain.close();
      }
    });
  });

  describe('compression', () => {
    const history = '/api/market-history?symbol=BTCUSDT&interval=1m&limit=1000';

    it.each([
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const)(
      'market history with Accept-Encoding: %s decompresses to the identical JSON',
      async (encoding, inflate) => {
        const identity = await t.app.inject({ url: history, headers: user.auth });
        expect(identity.statusCode).toBe(200);
        expect(identity.headers['content-encoding']).toBeUndefined();
        const encoded = await t.app.inject({
          url: history,
          headers: { ...user.auth, 'accept-encoding': encoding },
        });
        expect(encoded.headers['content-encoding']).toBe(encoding);
        expect(String(encoded.headers.vary)).toContain('accept-encoding');
        const raw = encoded.rawPayload;
        expect(raw.length).toBeLessThan(identity.rawPayload.length);
        expect(inflate(raw).toString()).toBe(identity.body);
      },
    );

    it('compresses a pre-serialized snapshot once per refresh and prefers brotli', async () => {
      const a = await t.app.inject({
        url: '/api/market-data',
        headers: { ...user.auth, 'accept-encoding': 'gzip, br' },
      });
      const b = await t.app.inject({
        url: '/api/market-data',
        headers: { ...user.auth, 'accept-encoding': 'gzip;q=1, br;q=0' },
      });
      const identity = await t.app.inject({ url: '/api/market-data', headers: user.auth });
      expect(a.headers['content-encoding']).toBe('br');
      expect(b.headers['content-encoding']).toBe('gzip');
      // Same snapshot (same ETag) unless a refresh came in between; then compare with the matching identity.
      if (a.headers.etag === identity.headers.etag)
        expect(brotliDecompressSync(a.rawPayload).toString()).toBe(identity.body);
      if (b.headers.etag === identity.headers.etag)
        expect(gunzipSync(b.rawPayload).toString()).toBe(identity.body);
    });

    it('leaves small answers alone', async () => {
      const res = await t.app.inject({
        url: '/api/account',
        headers: { ...user.auth, 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBeUndefined();
    });
  });

  describe('ETag', () => {
    it('answers a matching If-None-Match on a hot payload with 304 and no body', async () => {
      const first = await t.app.inject({
        url: '/api/predictions?symbol=BTCUSDT&horizon=1h',
        headers: user.auth,
      });
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await t.app.inject({
        url: '/api/predictions?symbol=BTCUSDT&horizon=1h',
        headers: { ...user.auth, 'if-none-match': `W/"other", ${etag}` },
      });
      // The model may have refreshed in between: then the page changed and a full 200 is right.
      if (again.headers.etag === etag) {
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
      } else expect(again.statusCode).toBe(200);
      const stale = await t.app.inject({
        url: '/api/predictions?symbol=BTCUSDT&horizon=1h',
        headers: { ...user.auth, 'if-none-match': '"not-this-one"' },
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toHaveProperty('data');
    });

    it('a 304 is still charged to the rate limit and carries its headers', async () => {
      const first = await t.app.inject({ url: '/api/account', headers: user.auth });
      const res = await t.app.inject({
        url: '/api/account',
        headers: { ...user.auth, 'if-none-match': String(first.headers.etag) },
      });
      expect(res.statusCode).toBe(304);
      expect(res.headers.ratelimit).toBeDefined();
      expect(res.headers['x-request-id']).toBeDefined();
    });
  });

  it('market data names its source and its time, and says stale once the snapshot is older than the window', async () => {
    const fresh = await t.app.inject({ url: '/api/market-data', headers: user.auth });
    expect(fresh.headers['meridian-source']).toBe('simulated');
    const newest = Math.max(...fresh.json().data.map((d: { updatedAt: string }) => Date.parse(d.updatedAt)));
    expect(fresh.headers['meridian-as-of']).toBe(new Date(newest).toISOString());
    expect(fresh.headers['meridian-stale']).toBe('false');
    // No tick for longer than MERIDIAN_MARKET_STALE_MS (the feed stopped, or on a replica the worker died).
    clock.advance(60_000);
    try {
      const later = await t.app.inject({ url: '/api/market-data', headers: user.auth });
      expect(later.headers['meridian-stale']).toBe('true');
      expect(later.headers['meridian-as-of']).toBe(fresh.headers['meridian-as-of']);
    } finally {
      clock.advance(-60_000);
    }
  });

  it('every answer carries the security headers; credential answers are never stored', async () => {
    for (const url of ['/api/market-data', '/api/account', '/api/nope', '/healthz']) {
      const res = await t.app.inject({ url, headers: user.auth });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(String(res.headers['content-security-policy']), url).toContain("default-src 'none'");
    }
    const account = await t.app.inject({ url: '/api/account', headers: user.auth });
    expect(account.headers['cache-control']).toBe('no-store');
  });
});
