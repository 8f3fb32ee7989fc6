import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { type EventsTables, insertAccountEvents } from '../../src/modules/events/index.ts';
import type { TestApp, TestUser } from '../harness/app.ts';
import { dbKinds, openTestDatabase, redisUrl } from '../harness/db.ts';
import { type Client, connect } from '../push/client.ts';
import { createWebhookApp, fireEvents } from './harness.ts';

const listen = async (t: TestApp) => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/events`;
};

describe.each(dbKinds())('account event stream /events on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let alice: TestUser;
  let bob: TestUser;
  const open: Client[] = [];
  const client = async (...args: Parameters<typeof connect>) => {
    const c = await connect(...args);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createWebhookApp(kind, { container: { webhooks: { eventsStream: { sweepMs: 500 } } } });
    url = await listen(t);
    alice = await t.user('viewer');
    bob = await t.user('member');
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await t.close();
  });

  it("carries the account's events only, each the stored body; a reconnect with after replays exactly what was missed", async () => {
    const c1 = await client(url, { headers: alice.auth });
    const [a1, a2] = await fireEvents(t.container, alice.id, [
      { ruleId: 'alr_s1' },
      { ruleId: 'alr_s2', type: 'onchain.flow' },
    ]);
    await fireEvents(t.container, bob.id, [{ ruleId: 'alr_bob' }]);
    const [a3] = await fireEvents(t.container, alice.id, [{ ruleId: 'alr_s3' }]);
    await c1.next((m) => m.id === a3!.id);
    expect(c1.messages.map((m) => (m as { id: string }).id)).toEqual([a1!.id, a2!.id, a3!.id]);
    expect(c1.messages[1]).toEqual(JSON.parse(a2!.body));
    c1.ws.close();
    await c1.closed;

    const missed = await fireEvents(t.container, alice.id, [
      { ruleId: 'alr_m1' },
      { ruleId: 'alr_m2' },
      { ruleId: 'alr_m3' },
    ]);
    // Resume with the token as subprotocol (how a browser authenticates).
    const c2 = await client(`${url}?after=${a3!.id}`, { protocols: ['meridian.v1', alice.token] });
    expect(c2.ws.protocol).toBe('meridian.v1');
    await c2.next((m) => m.id === missed[2]!.id);
    const [live] = await fireEvents(t.container, alice.id, [{ ruleId: 'alr_live' }]);
    await c2.next((m) => m.id === live!.id);
    expect(c2.messages.map((m) => (m as { id: string }).id)).toEqual([...missed.map((e) => e.id), live!.id]);
  });

  it('starts at the handshake without after, and backfills an event whose bus message was lost', async () => {
    await fireEvents(t.container, alice.id, [{ ruleId: 'alr_before' }]);
    const c = await client(url, { headers: alice.auth });
    // Stored but never announced: the periodic read of the log delivers it.
    const [silent] = await insertAccountEvents(
      tablesOf<EventsTables>(t.container.db.db),
      [
        {
          accountId: alice.id,
          type: 'alert.triggered',
          data: { rule: { id: 'alr_silent' }, trigger: { id: 't' } },
        },
      ],
      Date.now(),
    );
    await c.next((m) => m.id === silent!.id, 5_000);
    expect(c.messages.map((m) => (m as { id: string }).id)).toEqual([silent!.id]);
  });

  it('refuses bad credentials, missing permission and unknown cursors with problem documents', async () => {
    await expect(connect(url)).rejects.toMatchObject({ status: 401 });
    const narrowed = await t.user('member', { permissions: ['market:read'] });
    await expect(connect(url, { headers: narrowed.auth })).rejects.toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    const [bobs] = await fireEvents(t.container, bob.id, [{ ruleId: 'alr_b' }]);
    for (const after of [bobs!.id, 'evt_doesnotexist', 'nonsense']) {
      const refused = await connect(`${url}?after=${after}`, { headers: alice.auth }).catch((e) => e);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].pointer).toBe('/query/after');
    }
  });

  it('a token revoked while streaming closes its socket with 4401', async () => {
    const carol = await t.user('member');
    const c = await client(url, { headers: carol.auth });
    await t.container.accounts.revokeToken(carol.id, carol.tokenId);
    expect((await c.closed).code).toBe(4401);
  });

  it('the retention job prunes events past the retention period; a cursor to one is refused', async () => {
    const old = Date.now() - 49 * 3_600_000;
    const [ancient] = await insertAccountEvents(
      tablesOf<EventsTables>(t.container.db.db),
      [
        {
          accountId: alice.id,
          type: 'alert.triggered',
          data: { rule: { id: 'alr_old' }, trigger: { id: 't' } },
        },
      ],
      old,
    );
    await t.container.webhooks.retentionJob.start();
    await t.container.webhooks.retentionJob.stop();
    expect(await t.container.webhooks.events.findForAccount(alice.id, ancient!.id)).toBeUndefined();
    const refused = await connect(`${url}?after=${ancient!.id}`, { headers: alice.auth }).catch((e) => e);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('48-hour retention');
  });
});

describe.skipIf(!redisUrl())('/events across two API replicas sharing Redis', () => {
  let db: DbHandle;
  let a: TestApp;
  let b: TestApp;
  const open: Client[] = [];

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    const env = { REDIS_URL: redisUrl()! };
    a = await createWebhookApp('pglite', { env, container: { db, skipMigrations: true } });
    b = await createWebhookApp('pglite', { env, container: { db, skipMigrations: true } });
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it('an event announced on one replica reaches a stream on the other at once', async () => {
    const urlB = await listen(b);
    const user = await a.user('member');
    const c = await connect(urlB, { headers: user.auth });
    open.push(c);
    const [event] = await fireEvents(a.container, user.id, [{ ruleId: 'alr_redis' }]);
    // Well under the 5 s backstop read: it came over the bus.
    const got = await c.next((m) => m.id === event!.id, 2_000);
    expect(got.id).toBe(event!.id);
  });
});
