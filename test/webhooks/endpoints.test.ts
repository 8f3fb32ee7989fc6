import { lookup as realLookup } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import {
  createRule,
  createWebhook,
  createWebhookApp,
  fireEvents,
  startReceiver,
  waitFor,
  type Receiver,
} from './harness.ts';

/** DNS as the tests need it: one name that resolves to loopback, one to a public address; the rest real. */
const fakeLookup = ((host: string, options: unknown, callback: (...args: unknown[]) => void) => {
  const answers: Record<string, string> = {
    'rebind.example': '127.0.0.1',
    'public.example': '93.184.216.34',
  };
  const address = answers[host];
  if (!address) return (realLookup as unknown as (...a: unknown[]) => void)(host, options, callback);
  const all = (options as { all?: boolean }).all;
  if (all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
}) as unknown as typeof realLookup;

describe.each(dbKinds())('webhook endpoints on %s', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let viewer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    // No allow-list and https only: the production policy.
    t = await createWebhookApp(kind, {
      env: { MERIDIAN_WEBHOOK_ALLOW: '', MERIDIAN_WEBHOOK_ALLOW_HTTP: 'false' },
      container: { webhooks: { lookup: fakeLookup } },
    });
    member = await t.user('member');
    viewer = await t.user('viewer');
    other = await t.user('member');
  });
  afterAll(() => t.close());

  it('creates a webhook, shows its whsec_ secret once, lists it without the secret, deletes it', async () => {
    const created = await createWebhook(t, member.auth, 'https://public.example/hooks?x=1', [
      'alert.triggered',
    ]);
    expect(created.id).toMatch(/^wh_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({
      url: 'https://public.example/hooks?x=1',
      events: ['alert.triggered'],
      status: 'enabled',
    });

    const list = await t.app.inject({ url: '/api/webhooks', headers: member.auth });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().data.map((w: { id: string }) => w.id)).toContain(created.id);
    const one = await t.app.inject({ url: `/api/webhooks/${created.id}`, headers: member.auth });
    expect(one.json()).not.toHaveProperty('secret');

    // Stored sealed, never in plain text.
    const row = await t.container.db.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${created.id}`,
      headers: member.auth,
    });
    expect(del.statusCode).toBe(204);
    const gone = await t.app.inject({ url: `/api/webhooks/${created.id}`, headers: member.auth });
    expect(gone.statusCode).toBe(404);
  });

  it('documents every route, the deliveries and the event body in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    for (const path of [
      '/api/webhooks',
      '/api/webhooks/{id}',
      '/api/webhooks/{id}/rotate',
      '/api/webhooks/{id}/deliveries',
      '/api/alerts/{id}/deliveries',
    ])
      expect(doc.paths[path], path).toBeDefined();
    expect(Object.keys(doc.webhooks)).toEqual(['alert.triggered', 'onchain.flow', 'alert.capped']);
    // Each event type has its own body schema (the webhooks' payloads, and what /events sends).
    for (const name of ['AlertTriggeredEvent', 'OnchainFlowEvent', 'AlertCappedEvent'])
      expect(doc.components.schemas[name].properties, name).toHaveProperty('data');
    const created = doc.paths['/api/webhooks'].post.responses['201'].content['application/json'].schema;
    const createdSchema = created.$ref
      ? doc.components.schemas[created.$ref.replace('#/components/schemas/', '')]
      : created;
    expect(createdSchema.properties).toHaveProperty('secret');
  });

  it('rotates: a new secret, the previous one valid for 24 h more', async () => {
    const created = await createWebhook(t, member.auth, 'https://public.example/rotate');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${created.id}/rotate`,
      headers: member.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const grace = Date.parse(rotated.previousSecretExpiresAt) - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3_600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3_600_000);
  });

  it('validates the body and lists every problem with a JSON pointer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: member.auth,
      payload: { url: 'https://public.example/', events: ['price.moved'], extra: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const pointers = res.json().errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/body/events/0']));
  });

  describe('SSRF: each refused with a 400 naming why', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
      ['https://localhost/', /localhost resolves to .*loopback/],
      ['https://[::1]/', /::1 is a loopback address/],
      ['https://10.1.2.3/', /private address/],
      ['https://172.16.5.4/', /private address/],
      ['https://192.168.0.10/', /private address/],
      ['https://169.254.169.254/latest/meta-data', /metadata address/],
      ['https://100.64.1.1/', /carrier-grade NAT/],
      ['https://[::ffff:127.0.0.1]/', /127\.0\.0\.1 is a loopback address/],
      ['https://2130706433/', /127\.0\.0\.1 is a loopback address/],
      ['https://0177.0.0.1/', /127\.0\.0\.1 is a loopback address/],
      ['https://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
      ['https://[fe80::1]/', /link-local/],
      ['https://0.0.0.0/', /unspecified/],
      ['https://rebind.example/', /rebind\.example resolves to 127\.0\.0\.1 is a loopback address/],
      ['file:///etc/passwd', /scheme file: is not accepted/],
      ['gopher://public.example:70/_x', /scheme gopher: is not accepted/],
      ['http://public.example/', /plain http:\/\/ is not accepted/],
      ['https://user:pw@public.example/', /credentials/],
      ['not a url', /not an absolute URL/],
      ['https://public.example:0/', /port 0/],
      ['https://1.1.1.1:0/', /port 0/],
    ];
    it.each(cases)('%s', async (url, reason) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: member.auth,
        payload: { url, events: ['alert.triggered'] },
      });
      expect(res.statusCode).toBe(400);
      const problem = res.json();
      expect(problem.code).toBe('url_not_allowed');
      expect(problem.detail).toMatch(reason);
      expect(problem.errors).toEqual([{ pointer: '/body/url', message: expect.stringMatching(reason) }]);
    });
  });

  describe('permissions', () => {
    let mine: { id: string };
    let receiver: Receiver;
    let ruleOwnedByMember: string;
    beforeAll(async () => {
      mine = await createWebhook(t, member.auth, 'https://public.example/perm');
      receiver = await startReceiver();
      ruleOwnedByMember = await createRule(t, member.auth, 'permissions');
    });
    afterAll(() => receiver.close());

    it('a viewer reads but cannot create, delete or rotate (403)', async () => {
      const viewerOwn = await t.app.inject({ url: '/api/webhooks', headers: viewer.auth });
      expect(viewerOwn.statusCode).toBe(200);
      const writes = [
        {
          method: 'POST' as const,
          url: '/api/webhooks',
          payload: { url: 'https://public.example/', events: ['alert.triggered'] },
        },
        { method: 'DELETE' as const, url: `/api/webhooks/${mine.id}` },
        { method: 'POST' as const, url: `/api/webhooks/${mine.id}/rotate` },
      ];
      for (const w of writes) {
        const res = await t.app.inject({ ...w, headers: viewer.auth });
        expect(res.statusCode, `${w.method} ${w.url}`).toBe(403);
        expect(res.json().code).toBe('forbidden');
      }
    });

    it("another account gets 404 for the webhook, its deliveries and the rule's deliveries", async () => {
      // Give the member's rule a delivery so it exists from the deliveries side.
      await t.container.db.db
        .insertInto('webhook_deliveries')
        .values({
          id: `msg_perm_${Date.now()}`,
          endpoint_id: mine.id,
          account_id: member.id,
          event_seq: 1,
          event_id: `evt_perm_${Date.now()}`,
          event_type: 'alert.triggered',
          rule_id: ruleOwnedByMember,
          order_key: `rule:${ruleOwnedByMember}`,
          body: '{}',
          test: false,
          status: 'delivered',
          next_attempt_at: 0,
          created_at: Date.now(),
          finished_at: Date.now(),
        })
        .execute();
      const own = await t.app.inject({
        url: `/api/alerts/${ruleOwnedByMember}/deliveries`,
        headers: member.auth,
      });
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toHaveLength(1);

      for (const req of [
        { method: 'GET' as const, url: `/api/webhooks/${mine.id}` },
        { method: 'GET' as const, url: `/api/webhooks/${mine.id}/deliveries` },
        { method: 'POST' as const, url: `/api/webhooks/${mine.id}/rotate` },
        { method: 'DELETE' as const, url: `/api/webhooks/${mine.id}` },
        { method: 'GET' as const, url: `/api/alerts/${ruleOwnedByMember}/deliveries` },
      ]) {
        const res = await t.app.inject({ ...req, headers: other.auth });
        expect(res.statusCode, `${req.method} ${req.url}`).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
      const still = await t.app.inject({ url: `/api/webhooks/${mine.id}`, headers: member.auth });
      expect(still.statusCode).toBe(200);
    });

    it('events of another account never reach this account’s webhook', async () => {
      // Receivers on loopback are refused by this app's policy, so only matching is checked here: no row.
      await fireEvents(t.container, other.id, [{ ruleId: 'alr_other' }]);
      const sender = t.container.webhooks.sender!;
      await sender.start();
      await waitFor('the sender to pass', async () => {
        await sender.idle();
        return true;
      });
      await sender.stop();
      const rows = await t.container.db.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', mine.id)
        .where('rule_id', '=', 'alr_other')
        .execute();
      expect(rows).toHaveLength(0);
    });
  });
});

describe('webhook secrets without a key in scaled mode', () => {
  it('creating a webhook answers 503 naming MERIDIAN_SECRETS_KEY', async () => {
    const t = await createWebhookApp('pglite', {
      env: { MERIDIAN_SECRETS_KEY: '', DATABASE_URL: 'postgres://unused@127.0.0.1:1/none' },
    });
    try {
      const member = await t.user('member');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: member.auth,
        payload: { url: 'http://127.0.0.1:9/hook', events: ['alert.triggered'] },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'not_configured' });
      expect(res.json().detail).toContain('MERIDIAN_SECRETS_KEY');
      expect(t.container.webhooks.sender).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
