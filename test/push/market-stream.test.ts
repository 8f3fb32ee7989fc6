import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import type { MarketRuntime } from '../../src/modules/market/service.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds, openTestDatabase, redisUrl } from '../harness/db.ts';
import { waitFor } from '../harness/wait.ts';
import { type Client, connect, refused } from './client.ts';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);
const urlOf = async (t: TestApp) => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/market`;
};

type Frame = {
  type: string;
  at: string;
  source: string;
  asOf: string | null;
  stale: boolean;
  data: Array<{ symbol: string; price: number | null }>;
};

/** Ticks the market (one minute of market time each) until `c` receives a frame after `from`. */
async function nextTick(market: MarketRuntime, clock: ReturnType<typeof manualClock>, c: Client) {
  const from = c.messages.length;
  return waitFor(async () => {
    clock.advance(60_000);
    market.tickNow();
    return c.messages.length > from ? (c.messages.at(-1) as Frame) : undefined;
  }, 'a market frame after a tick');
}

describe.each(dbKinds())('market push channel /market on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let user: TestUser;
  let market: MarketRuntime;
  const clock = manualClock(NOW);
  const published: string[] = [];
  const open: Client[] = [];
  const client = async (...args: Parameters<typeof connect>) => {
    const c = await connect(...args);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: {
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
      },
      container: { clock },
    });
    user = await t.user('viewer');
    market = t.container.market.service;
    await market.start();
    await market.windowsLoaded();
    market.tickNow();
    url = await urlOf(t);
    await t.container.bus.subscribe(topics.marketSnapshot, (p) => {
      published.push((p as { body: string }).body);
    });
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await market?.stop();
    await t?.close();
  });

  it('sends the current snapshot on connect (the /api/market-data items) and a new one after a market tick', async () => {
    const c = await client(url, { protocols: ['meridian.v1', user.token] });
    expect(c.ws.protocol).toBe('meridian.v1');
    const first = (await c.next((m) => m.type === 'snapshot')) as Frame;
    const rest = await t.app.inject({ method: 'GET', url: '/api/market-data', headers: user.auth });
    const restData = (rest.json() as Frame).data;
    expect(first.data.map((d) => d.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(Object.keys(first.data[0]!).sort()).toEqual(Object.keys(restData[0]!).sort());
    expect(Number.isNaN(Date.parse(first.at))).toBe(false);
    // The envelope carries the provenance the REST answer carries in headers, on the market's own clock.
    expect(first.at).toBe(new Date(clock.now()).toISOString());
    expect(first.source).toBe('simulated');
    expect(first.source).toBe(rest.headers['meridian-source']);
    expect(first.asOf).toBe(rest.headers['meridian-as-of']);
    expect(first.stale).toBe(false);

    const update = await nextTick(market, clock, c);
    expect(update.type).toBe('snapshot');
    expect(update.at).not.toBe(first.at);
    // The frame carries a snapshot exactly as the market published it.
    expect(published.map((body) => JSON.parse(body).data)).toContainEqual(update.data);
    expect(Date.parse(update.asOf!)).toBeGreaterThanOrEqual(Date.parse(first.asOf!));
    // History comes from the same feed and says so the same way.
    const history = await t.app.inject({
      url: '/api/market-history?symbol=BTCUSDT&interval=1m&limit=5',
      headers: user.auth,
    });
    expect(history.headers['meridian-source']).toBe('simulated');
    const now = await t.app.inject({ url: '/api/market-data', headers: user.auth });
    expect(history.headers['meridian-as-of']).toBe(now.headers['meridian-as-of']);
    expect(Date.parse(history.headers['meridian-as-of'] as string)).toBeGreaterThanOrEqual(
      Date.parse(update.asOf!),
    );
    expect(history.headers['meridian-stale']).toBe(now.headers['meridian-stale']);
  });

  it('accepts the console session cookie from the same origin and refuses it from another', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const cookie = `meridian_session=${login.cookies[0]!.value}`;
    const host = new URL(url).host;
    const c = await client(url, { headers: { cookie, origin: `http://${host}` } });
    expect(((await c.next()) as Frame).type).toBe('snapshot');
    const r = await refused(url, { headers: { cookie, origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
  });

  it('refuses no credentials (401) and credentials without market:read (403) before the upgrade', async () => {
    const none = await refused(url);
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/problem\+json/);
    const narrowed = await t.user('member', { permissions: ['predictions:read'] });
    const r = await refused(url, { headers: narrowed.auth });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
  });

  it('a token revoked while streaming closes its socket with 4401', async () => {
    const carol = await t.user('member');
    const c = await client(url, { headers: carol.auth });
    await c.next();
    await t.container.accounts.revokeToken(carol.id, carol.tokenId);
    expect((await c.closed).code).toBe(4401);
  });

  it('allows 5 market streams per standard account and refuses the 6th (429)', async () => {
    const dave = await t.user('member');
    for (let i = 0; i < 5; i++) await client(url, { headers: dave.auth });
    const r = await refused(url, { headers: dave.auth });
    expect(r.status).toBe(429);
    expect(r.body.code).toBe('too_many_connections');
  });
});

// Scaled mode: an API replica without the market job pushes what the worker publishes through Redis.
describe.skipIf(!redisUrl())('market push channel on an API replica (Redis bus)', () => {
  let db: DbHandle;
  let worker: TestApp;
  let api: TestApp;
  const clock = manualClock(NOW);
  const published: string[] = [];
  const open: Client[] = [];

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    const env = {
      REDIS_URL: redisUrl()!,
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
      MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
      MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
    };
    worker = await createTestApp({ env, container: { db, skipMigrations: true, clock } });
    api = await createTestApp({ env, container: { db, skipMigrations: true, clock } });
    await worker.container.market.service.start();
    await worker.container.market.service.windowsLoaded();
    await api.container.bus.subscribe(topics.marketSnapshot, (p) => {
      published.push((p as { body: string }).body);
    });
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await worker?.container.market.service.stop();
    await worker?.close();
    await api?.close();
    await db?.close();
  });

  it('the replica relays the worker snapshots to its sockets', async () => {
    const user = await api.user('viewer');
    const c = await connect(await urlOf(api), { headers: user.auth });
    open.push(c);
    expect(api.container.market.service.running()).toBe(false);
    const frame = await nextTick(worker.container.market.service, clock, c);
    expect(frame.data.map((d) => d.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(published.map((body) => JSON.parse(body).data)).toContainEqual(frame.data);
  });
});
