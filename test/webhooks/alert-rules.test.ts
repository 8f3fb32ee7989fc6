import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { dbKinds } from '../harness/db.ts';
import type { TestApp } from '../harness/app.ts';
import {
  type Receiver,
  createRule,
  createWebhook,
  createWebhookApp,
  startReceiver,
  waitFor,
} from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

/** Alert rules and webhook delivery wired together by the composition root, as `npm start` runs them. */
describe.each(dbKinds())('alert rules delivered by webhook on %s', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createWebhookApp(kind);
    receiver = await startReceiver();
    await t.container.webhooks.job.start();
  });
  afterAll(async () => {
    await t.container.webhooks.job.stop();
    await receiver.close();
    await t.close();
  });

  it('a rule that names no webhook goes to every subscribed endpoint, signed, and is listed under the rule', async () => {
    const user = await t.user('member');
    const hook = await createWebhook(t, user.auth, receiver.url, ['alert.triggered']);
    const ruleId = await createRule(t, user.auth, 'wired');
    const fired = await t.app.inject({
      method: 'POST',
      url: `/api/alerts/${ruleId}/test`,
      headers: user.auth,
    });
    expect(fired.statusCode).toBeLessThan(300);
    const eventId = (fired.json() as Json).eventId as string;
    await waitFor('the receiver got the test event', () =>
      receiver.received.some((r) => r.body.includes(eventId)),
    );
    const got = receiver.received.find((r) => r.body.includes(eventId))!;
    const verified = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as Json;
    expect(verified).toMatchObject({
      id: eventId,
      type: 'alert.triggered',
      test: true,
      data: { rule: { id: ruleId } },
    });
    await waitFor('the delivery is recorded as delivered', async () => {
      const res = await t.app.inject({ url: `/api/alerts/${ruleId}/deliveries`, headers: user.auth });
      return res.statusCode === 200 && (res.json() as Json).data[0]?.status === 'delivered';
    });
  });

  it('a rule that names a webhook goes to that one only', async () => {
    const user = await t.user('member');
    const other = await startReceiver();
    try {
      await createWebhook(t, user.auth, other.url, ['alert.triggered']);
      const named = await createWebhook(t, user.auth, receiver.url, ['alert.triggered']);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/alerts',
        headers: user.auth,
        payload: {
          type: 'price',
          symbol: 'ETHUSDT',
          condition: { op: 'above', value: 1e9 },
          channels: { webhookIds: [named.id] },
        },
      });
      const ruleId = (res.json() as Json).id as string;
      const fired = await t.app.inject({
        method: 'POST',
        url: `/api/alerts/${ruleId}/test`,
        headers: user.auth,
      });
      const eventId = (fired.json() as Json).eventId as string;
      await waitFor('the named endpoint got it', () =>
        receiver.received.some((r) => r.body.includes(eventId)),
      );
      await waitFor('its delivery is final', async () => {
        const page = await t.app.inject({ url: `/api/alerts/${ruleId}/deliveries`, headers: user.auth });
        return (page.json() as Json).data.every((d: Json) => d.status === 'delivered');
      });
      const page = (
        await t.app.inject({ url: `/api/alerts/${ruleId}/deliveries`, headers: user.auth })
      ).json() as Json;
      expect(page.data.map((d: Json) => d.webhookId)).toEqual([named.id]);
      expect(other.received.some((r) => r.body.includes(eventId))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('exhausted delivery puts the rule in the failing state (the wiring the sender reports through)', async () => {
    const user = await t.user('member');
    const ruleId = await createRule(t, user.auth, 'will fail');
    await t.container.webhooks.ports.exhausted.onExhausted(user.id, ruleId);
    const rule = (await t.app.inject({ url: `/api/alerts/${ruleId}`, headers: user.auth })).json() as Json;
    expect(rule.state).toBe('failing');
  });
});
