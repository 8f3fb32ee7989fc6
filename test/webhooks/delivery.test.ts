import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMessage } from '../../src/modules/webhooks/index.ts';
import type { TestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import {
  type Receiver,
  createRule,
  createWebhook,
  createWebhookApp,
  fireEvents,
  startReceiver,
  waitFor,
} from './harness.ts';

const eventIdOf = (body: string) => (JSON.parse(body) as { id: string }).id;
const ruleIdOf = (body: string) => (JSON.parse(body) as { data: { rule: { id: string } } }).data.rule.id;

describe.each(dbKinds())('webhook delivery on %s', (kind) => {
  let t: TestApp;
  const exhausted: Array<[string, string]> = [];
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await createWebhookApp(kind, {
      env: {
        MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms,400ms,800ms',
        MERIDIAN_WEBHOOK_CONCURRENCY: '2',
      },
      container: {
        webhooks: {
          exhausted: {
            onExhausted: async (accountId, ruleId) => {
              exhausted.push([accountId, ruleId]);
            },
          },
        },
      },
    });
    await t.container.webhooks.job.start();
  });
  afterAll(async () => {
    await t.container.webhooks.job.stop();
    for (const r of receivers) await r.close();
    await t.close();
  });

  it('signs per Standard Webhooks: the official library verifies, and rejects tampering, a wrong secret, an old timestamp', async () => {
    const user = await t.user('member');
    const r = await receiver();
    const hook = await createWebhook(t, user.auth, r.url);
    const [event] = await fireEvents(t.container, user.id, [{ ruleId: 'alr_sig' }]);
    await waitFor('the delivery', () => r.received.length === 1);
    const got = r.received[0]!;
    expect(got.body).toBe(event!.body); // the stored text, byte for byte
    expect(got.headers['content-type']).toBe('application/json');
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(headers['webhook-id']).toMatch(/^msg_/);
    expect(new Webhook(hook.secret).verify(got.body, headers)).toEqual(JSON.parse(event!.body));

    expect(() => new Webhook(hook.secret).verify(got.body.replace('alr_sig', 'alr_sih'), headers)).toThrow();
    const stranger = new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64'));
    expect(() => stranger.verify(got.body, headers)).toThrow();
    const old = Math.floor(Date.now() / 1000) - 10 * 60;
    const stale = {
      ...headers,
      'webhook-timestamp': String(old),
      'webhook-signature': signMessage(hook.secret, headers['webhook-id'], old, got.body),
    };
    expect(() => new Webhook(hook.secret).verify(got.body, stale)).toThrow(/timestamp/i);
  });

  it('after a rotation both the new and the previous secret verify (two signatures)', async () => {
    const user = await t.user('member');
    const r = await receiver();
    const hook = await createWebhook(t, user.auth, r.url);
    const rotated = (
      await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/rotate`, headers: user.auth })
    ).json();
    await fireEvents(t.container, user.id, [{ ruleId: 'alr_rot' }]);
    await waitFor('the delivery', () => r.received.length === 1);
    const got = r.received[0]!;
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.secret).verify(got.body, headers)).not.toThrow();
    expect(() => new Webhook(hook.secret).verify(got.body, headers)).not.toThrow();
  });

  it('receiver unreachable (connection refused), then back: every event arrives once, in order per rule', async () => {
    const user = await t.user('member');
    const gone = await startReceiver();
    const port = gone.port;
    await gone.close(); // nothing listens on the port now: every connection is refused
    const hook = await createWebhook(t, user.auth, `http://127.0.0.1:${port}/hook`);
    const rules = ['alr_refused_a', 'alr_refused_b'];
    const fired = [];
    for (let round = 0; round < 3; round++)
      fired.push(
        ...(await fireEvents(
          t.container,
          user.id,
          rules.map((ruleId) => ({ ruleId })),
        )),
      );
    const attempts = async () =>
      (
        await t.app.inject({ url: `/api/webhooks/${hook.id}/deliveries?limit=100`, headers: user.auth })
      ).json().data as Array<{
        status: string;
        attemptLog: Array<{ outcome: string; error: string | null }>;
      }>;
    await waitFor('a refused connection recorded', async () =>
      (await attempts()).some((d) => d.attemptLog.some((a) => a.outcome !== 'delivered' && a.error)),
    );
    // The outbox gauges show the queue while the receiver refuses.
    const outbox = async () => {
      const text = (await t.app.inject({ url: '/metrics' })).body;
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      return {
        pending: value('meridian_webhook_outbox_pending'),
        oldest: value('meridian_webhook_outbox_oldest_seconds'),
      };
    };
    // Events reach the outbox as the sender reads the event log: wait until all of this test's are queued.
    await waitFor(
      'every fired event queued in the outbox',
      async () => (await outbox()).pending >= fired.length,
    );
    const queued = await outbox();
    expect(queued.pending).toBeGreaterThanOrEqual(fired.length);
    expect(queued.oldest).toBeGreaterThan(0);
    const back = await startReceiver(port);
    receivers.push(back);
    await waitFor('every delivery settled', async () => {
      const page = await attempts();
      return page.length === fired.length && page.every((d) => d.status === 'delivered');
    });
    const accepted = back.received.map((x) => eventIdOf(x.body));
    expect(new Set(accepted).size).toBe(accepted.length); // none twice
    expect([...accepted].sort()).toEqual(fired.map((e) => e.id).sort()); // none lost
    expect((await outbox()).pending).toBeLessThanOrEqual(queued.pending - fired.length);
    for (const rule of rules) {
      const expected = fired.filter((e) => ruleIdOf(e.body) === rule).map((e) => e.id);
      expect(back.received.filter((x) => ruleIdOf(x.body) === rule).map((x) => eventIdOf(x.body))).toEqual(
        expected,
      );
    }
  });

  it('receiver down, then up: every event arrives once, in order per rule', async () => {
    const user = await t.user('member');
    const r = await receiver();
    let refused = 0;
    r.respond = () => {
      if (refused >= 6) return { status: 200 };
      refused++;
      return { status: 503 };
    };
    const hook = await createWebhook(t, user.auth, r.url);
    const rules = ['alr_a', 'alr_b', 'alr_c'];
    const fired = [];
    for (let round = 0; round < 4; round++)
      fired.push(
        ...(await fireEvents(
          t.container,
          user.id,
          rules.map((ruleId) => ({ ruleId })),
        )),
      );

    await waitFor('every event accepted', () => r.received.length >= fired.length + 6);
    await waitFor('every delivery settled', async () => {
      const page = (
        await t.app.inject({ url: `/api/webhooks/${hook.id}/deliveries?limit=100`, headers: user.auth })
      ).json();
      return (
        page.data.length === fired.length &&
        page.data.every((d: { status: string }) => d.status === 'delivered')
      );
    });
    const accepted = r.received.slice(6).map((x) => eventIdOf(x.body));
    expect(new Set(accepted).size).toBe(accepted.length); // none twice
    expect([...accepted].sort()).toEqual(fired.map((e) => e.id).sort()); // none lost
    for (const rule of rules) {
      const expected = fired.filter((e) => ruleIdOf(e.body) === rule).map((e) => e.id);
      // Every request for the rule, refused ones included, in event order: a retry holds back the next.
      const seen = r.received.filter((x) => ruleIdOf(x.body) === rule).map((x) => eventIdOf(x.body));
      const firstSeen = seen.filter((id, i) => seen.indexOf(id) === i);
      expect(firstSeen).toEqual(expected);
      expect(seen.map((id) => expected.indexOf(id))).toEqual(
        [...seen.map((id) => expected.indexOf(id))].sort((a, b) => a - b),
      );
    }
    // Paged 5 at a time, newest first: every delivery once.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.app.inject({
        url: `/api/webhooks/${hook.id}/deliveries?limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        headers: user.auth,
      });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { data: Array<{ eventId: string }>; nextCursor: string | null };
      paged.push(...page.data.map((d) => d.eventId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(fired.map((e) => e.id).reverse());
    const badCursor = await t.app.inject({
      url: `/api/webhooks/${hook.id}/deliveries?cursor=zzz`,
      headers: user.auth,
    });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().errors[0].pointer).toBe('/query/cursor');
    // The same webhook-id on each retry of one event.
    const idsPerEvent = new Map<string, Set<string>>();
    for (const x of r.received) {
      const set = idsPerEvent.get(eventIdOf(x.body)) ?? new Set();
      set.add(String(x.headers['webhook-id']));
      idsPerEvent.set(eventIdOf(x.body), set);
    }
    for (const set of idsPerEvent.values()) expect(set.size).toBe(1);
  });

  it('records every attempt (status, latency, error), visible per rule and per webhook', async () => {
    const user = await t.user('member');
    const r = await receiver();
    let calls = 0;
    r.respond = () => ({ status: ++calls === 1 ? 500 : 202 });
    const hook = await createWebhook(t, user.auth, r.url);
    const rule = await createRule(t, user.auth, 'attempt log');
    await fireEvents(t.container, user.id, [{ ruleId: rule }]);
    await waitFor('delivered', async () => {
      const res = await t.app.inject({ url: `/api/alerts/${rule}/deliveries`, headers: user.auth });
      return res.statusCode === 200 && res.json().data[0]?.status === 'delivered';
    });
    const byRule = (await t.app.inject({ url: `/api/alerts/${rule}/deliveries`, headers: user.auth })).json();
    const byHook = (
      await t.app.inject({ url: `/api/webhooks/${hook.id}/deliveries`, headers: user.auth })
    ).json();
    expect(byHook.data).toEqual(byRule.data);
    const delivery = byRule.data[0];
    expect(delivery).toMatchObject({
      webhookId: hook.id,
      ruleId: rule,
      status: 'delivered',
      attempts: 2,
      test: false,
    });
    expect(delivery.attemptLog).toHaveLength(2);
    expect(delivery.attemptLog[0]).toMatchObject({ attempt: 1, outcome: 'http_error', statusCode: 500 });
    expect(delivery.attemptLog[0].error).toContain('500');
    expect(delivery.attemptLog[1]).toMatchObject({
      attempt: 2,
      outcome: 'delivered',
      statusCode: 202,
      error: null,
    });
    expect(delivery.attemptLog[1].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('does not follow a redirect inward; exhausted retries fail the delivery and report the rule', async () => {
    const user = await t.user('member');
    const inner = await receiver();
    const r = await receiver();
    r.respond = () => ({ status: 302, headers: { location: `http://127.0.0.1:${inner.port}/internal` } });
    await createWebhook(t, user.auth, r.url);
    const rule = await createRule(t, user.auth, 'redirect');
    await fireEvents(t.container, user.id, [{ ruleId: rule }]);
    await waitFor('the rule reported exhausted', () => exhausted.some(([, id]) => id === rule));
    expect(inner.received).toHaveLength(0);
    expect(r.received).toHaveLength(6); // the first attempt and five retries
    const page = (await t.app.inject({ url: `/api/alerts/${rule}/deliveries`, headers: user.auth })).json();
    expect(page.data[0].status).toBe('failed');
    expect(page.data[0].attemptLog.every((a: { outcome: string }) => a.outcome === 'redirect')).toBe(true);
    expect(page.data[0].attemptLog[0].error).toMatch(/redirect to .*not followed/);
    expect(exhausted).toContainEqual([user.id, rule]);
  });

  it('410 Gone disables the endpoint and reports the rule', async () => {
    const user = await t.user('member');
    const r = await receiver();
    r.respond = () => ({ status: 410 });
    const hook = await createWebhook(t, user.auth, r.url);
    const rule = `alr_gone_${Date.now()}`;
    await fireEvents(t.container, user.id, [{ ruleId: rule }]);
    await waitFor('the endpoint disabled', async () => {
      const res = await t.app.inject({ url: `/api/webhooks/${hook.id}`, headers: user.auth });
      return res.json().status === 'disabled';
    });
    await waitFor('the rule reported', () => exhausted.some(([, id]) => id === rule));
    expect(r.received).toHaveLength(1);
    await fireEvents(t.container, user.id, [{ ruleId: rule }]);
    const again = await t.app.inject({ url: `/api/webhooks/${hook.id}/deliveries`, headers: user.auth });
    expect(again.json().data).toHaveLength(1);
  });

  it('keeps at most N deliveries in flight per endpoint', async () => {
    const user = await t.user('member');
    const r = await receiver();
    // A slow endpoint is the subject: its answers take 80 ms, so deliveries would overlap without the limit.
    r.respond = () => new Promise((done) => setTimeout(() => done({ status: 200 }), 80));
    await createWebhook(t, user.auth, r.url);
    await fireEvents(
      t.container,
      user.id,
      Array.from({ length: 8 }, (_, i) => ({ ruleId: `alr_par_${i}` })),
    );
    await waitFor('all delivered', () => r.received.length === 8);
    expect(r.maxConcurrent).toBeLessThanOrEqual(2);
    expect(r.maxConcurrent).toBe(2);
  });

  it('delivers only the event types an endpoint subscribed to', async () => {
    const user = await t.user('member');
    const flows = await receiver();
    const alerts = await receiver();
    await createWebhook(t, user.auth, flows.url, ['onchain.flow']);
    await createWebhook(t, user.auth, alerts.url, ['alert.triggered']);
    const [flow, alert] = await fireEvents(t.container, user.id, [
      { ruleId: 'alr_flow', type: 'onchain.flow' },
      { ruleId: 'alr_alert', type: 'alert.triggered', test: true },
    ]);
    await waitFor('both delivered', () => flows.received.length === 1 && alerts.received.length === 1);
    expect(eventIdOf(flows.received[0]!.body)).toBe(flow!.id);
    expect(eventIdOf(alerts.received[0]!.body)).toBe(alert!.id);
    expect(JSON.parse(alerts.received[0]!.body).test).toBe(true);
  });
});
