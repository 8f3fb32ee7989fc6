import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { openTestDatabase, redisUrl } from '../harness/db.ts';
import { type Client, connect, refresh, refused } from './client.ts';

// Runs whenever Redis is reachable; with MERIDIAN_REQUIRE_SERVICES=1 the global setup fails instead of skipping.
describe.skipIf(!redisUrl())('push channel across two API replicas sharing Redis', () => {
  let db: DbHandle;
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  const open: Client[] = [];

  const listen = async (t: TestApp) => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/predictions`;
  };
  const client = async (...args: Parameters<typeof connect>) => {
    const c = await connect(...args);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    // One database shared by both replicas (as in production), one Redis.
    db = await openTestDatabase('pglite');
    const env = { REDIS_URL: redisUrl()!, MERIDIAN_AUTH_FAILURE_LIMIT: '1000' };
    a = await createTestApp({ env, container: { db, skipMigrations: true } });
    b = await createTestApp({ env, container: { db, skipMigrations: true } });
    urlA = await listen(a);
    urlB = await listen(b);
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it('delivers every refresh exactly once to every client on both replicas', async () => {
    const u1 = await a.user('viewer');
    const u2 = await b.user('viewer');
    const clients = await Promise.all([
      client(urlA, { headers: u1.auth }),
      client(urlA, { headers: u2.auth }),
      client(urlA, { headers: u1.auth }),
      client(urlB, { headers: u1.auth }),
      client(urlB, { headers: u2.auth }),
      client(`${urlB}?symbol=BTCUSDT`, { headers: u2.auth }),
    ]);
    // Markers tell this run's refreshes apart from any other test publishing on the same Redis.
    const base = Date.UTC(2001, 0, 1) + randomInt(1_000_000_000);
    const stamps = Array.from({ length: 5 }, (_, i) => new Date(base + i * 1000).toISOString());
    const sentinel = new Date(base + 99_000).toISOString();
    // The worker publishes once per refresh (here from replica A's container; any process on the bus works).
    for (const stamp of stamps)
      await a.container.bus.publish(topics.predictionsRefreshed, refresh(undefined, undefined, stamp).data);
    await b.container.bus.publish(topics.predictionsRefreshed, refresh(undefined, undefined, sentinel).data);

    // Pub/sub keeps order per channel: once the sentinel arrived, every earlier copy (or duplicate) has too.
    await Promise.all(clients.map((c) => c.next((m) => m.data?.[0]?.generatedAt === sentinel, 5_000)));
    for (const c of clients) {
      const seen = c.messages
        .map((m: any) => m.data?.[0]?.generatedAt)
        .filter((s: string) => stamps.includes(s));
      expect(seen).toEqual(stamps);
    }
    // The narrowed client got only its symbol.
    const narrowed = clients[5]!.messages.filter((m: any) =>
      stamps.includes(m.data?.[0]?.generatedAt),
    ) as any[];
    expect(narrowed.every((m) => m.data.every((d: any) => d.symbol === 'BTCUSDT'))).toBe(true);
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
  });

  it('enforces the per-account connection cap across replicas', async () => {
    const user = await a.user('viewer');
    const five = await Promise.all([
      client(urlA, { headers: user.auth }),
      client(urlA, { headers: user.auth }),
      client(urlA, { headers: user.auth }),
      client(urlB, { headers: user.auth }),
      client(urlB, { headers: user.auth }),
    ]);
    expect((await refused(urlA, { headers: user.auth })).body.code).toBe('too_many_connections');
    expect((await refused(urlB, { headers: user.auth })).body.code).toBe('too_many_connections');
    five[3]!.ws.close();
    await five[3]!.closed;
    // The slot is given back on B's close; A sees it through Redis.
    const deadline = Date.now() + 3_000;
    let sixth: Client | undefined;
    while (!sixth && Date.now() < deadline)
      sixth = await client(urlA, { headers: user.auth }).catch(() => undefined);
    expect(sixth).toBeDefined();
    for (const c of [...five, sixth!]) c.ws.close();
  });

  it('closes a token revoked on one replica on the other within 5 seconds', async () => {
    const user = await a.user('viewer');
    const onB = await client(urlB, { headers: user.auth });
    const started = Date.now();
    await a.container.accounts.revokeToken(user.id, user.tokenId);
    expect((await onB.closed).code).toBe(4401);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
