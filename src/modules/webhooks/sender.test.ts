import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/clock.ts';
import { type AccountEvent, createMemoryEventsRepository } from '../events/index.ts';
import type { WebhookEndpoint } from './types.ts';
import { createMemoryWebhooksRepositories } from './repository.ts';
import { maxAttempts, retryDelay } from './retry.ts';
import { deliveryId, matchEndpoints, ruleOf } from './routing.ts';
import { createWebhookSender, defaultSenderOptions } from './sender.ts';
import { generateSigningSecret } from './signature.ts';
import { waitUntil } from '../../../test/harness/wait.ts';

const endpoint = (over: Partial<WebhookEndpoint>): WebhookEndpoint => ({
  id: 'wh_1',
  kind: 'webhook',
  name: null,
  accountId: 'usr_a',
  url: 'https://example.com/',
  events: ['alert.triggered', 'onchain.flow'],
  description: null,
  secretSealed: 'x',
  previousSecretSealed: null,
  previousSecretExpiresAt: null,
  status: 'enabled',
  disabledReason: null,
  verification: null,
  createdAt: 1_000,
  updatedAt: 1_000,
  ...over,
});

const event = (data: Record<string, unknown>, over: Partial<AccountEvent> = {}): AccountEvent => ({
  seq: 1,
  id: 'evt_1',
  accountId: 'usr_a',
  type: 'alert.triggered',
  body: JSON.stringify({ id: 'evt_1', data }),
  test: false,
  createdAt: 2_000,
  ...over,
});

describe('which endpoints an event goes to', () => {
  const all = [
    endpoint({ id: 'wh_1' }),
    endpoint({ id: 'wh_2', events: ['onchain.flow'] }),
    endpoint({ id: 'wh_3', accountId: 'usr_b' }),
    endpoint({ id: 'wh_4', createdAt: 3_000 }),
    endpoint({ id: 'wh_5', status: 'disabled' }),
    endpoint({ id: 'wh_6' }),
  ];
  const ids = (e: AccountEvent) => matchEndpoints(e, all).map((x) => x.id);

  it("the account's enabled endpoints subscribed to the type that existed when it happened", () => {
    expect(ids(event({ rule: { id: 'alr_1' } }))).toEqual(['wh_1', 'wh_6']);
    expect(ids(event({ rule: { id: 'alr_1' } }, { type: 'onchain.flow' }))).toEqual(['wh_1', 'wh_2', 'wh_6']);
  });

  it("only the rule's own webhooks when it names them", () => {
    expect(ids(event({ rule: { id: 'alr_1', channels: { webhookIds: ['wh_6'] } } }))).toEqual(['wh_6']);
    // An empty list names no webhook: every subscribed endpoint, as the rule shape documents.
    expect(ids(event({ rule: { id: 'alr_1', channels: { webhookIds: [] } } }))).toEqual(
      ids(event({ rule: { id: 'alr_1' } })),
    );
    expect(ids(event({ rule: { id: 'alr_1', channels: { webhookIds: [] } } })).length).toBeGreaterThan(1);
    expect(ruleOf(event({ rule: { id: 'alr_9' } }).body)).toEqual({
      id: 'alr_9',
      webhookIds: undefined,
      channelIds: [],
    });
    expect(ruleOf('not json')).toBeUndefined();
  });

  it('the webhook-id is stable per event and endpoint, and differs across them', () => {
    expect(deliveryId('evt_1', 'wh_1')).toBe(deliveryId('evt_1', 'wh_1'));
    expect(deliveryId('evt_1', 'wh_1')).not.toBe(deliveryId('evt_1', 'wh_2'));
    expect(deliveryId('evt_1', 'wh_1')).not.toBe(deliveryId('evt_2', 'wh_1'));
    expect(deliveryId('evt_1', 'wh_1')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
  });
});

describe('retry schedule', () => {
  const policy = { schedule: [5_000, 60_000, 300_000], jitter: 0.2 };
  it('backs off per the schedule with ±20 % jitter, then stops', () => {
    expect(maxAttempts(policy)).toBe(4);
    expect(retryDelay(policy, 1, () => 0)).toBe(4_000);
    expect(retryDelay(policy, 1, () => 0.5)).toBe(5_000);
    expect(retryDelay(policy, 2, () => 0.999999)).toBe(72_000);
    expect(retryDelay(policy, 3, () => 0.5)).toBe(300_000);
    expect(retryDelay(policy, 4)).toBeUndefined();
  });
});

describe('the sender over the in-memory stores', () => {
  const box = { seal: (p: string) => `sealed:${p}`, open: (s: string) => s.slice(7) };
  const log = { info() {}, warn() {}, error() {} };

  async function setup(answer: (body: string, n: number) => number) {
    const { endpoints, deliveries } = createMemoryWebhooksRepositories();
    const events = createMemoryEventsRepository();
    const sent: Array<{ body: string; headers: Record<string, string> }> = [];
    const exhausted: string[] = [];
    await endpoints.insert(
      endpoint({ id: 'wh_1', secretSealed: box.seal(generateSigningSecret()), createdAt: 0 }),
    );
    const sender = createWebhookSender(
      {
        events,
        endpoints,
        deliveries,
        box,
        clock: systemClock,
        log,
        exhausted: {
          onExhausted: async (_account, rule) => {
            exhausted.push(rule);
          },
        },
        onEventAnnounced: async () => async () => {},
        transport: {
          async send(request) {
            sent.push(request);
            return { kind: 'response', statusCode: answer(request.body, sent.length), latencyMs: 1 };
          },
          close: async () => {},
        },
      },
      { ...defaultSenderOptions, pollMs: 20, settleMs: 100, retry: { schedule: [10, 10, 10], jitter: 0 } },
    );
    const add = (rule: string, n: number) =>
      events.add({
        id: `evt_${rule}_${n}`,
        accountId: 'usr_a',
        type: 'alert.triggered',
        body: JSON.stringify({ id: `evt_${rule}_${n}`, data: { rule: { id: rule } } }),
        test: false,
        createdAt: Date.now(),
      });
    return { sender, sent, exhausted, deliveries, endpoints, add };
  }

  const until = (check: () => boolean) => waitUntil(check, 'the sender', 5_000, 5);
  const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;

  it('retries a failing event and holds the rule’s next one back until it is through', async () => {
    const s = await setup((_body, n) => (n <= 2 ? 500 : 200));
    s.add('r1', 1);
    s.add('r1', 2);
    await s.sender.start();
    await until(() => s.sent.filter((x) => idOf(x.body) === 'evt_r1_2').length === 1);
    await s.sender.stop();
    expect(s.sent.map((x) => idOf(x.body))).toEqual(['evt_r1_1', 'evt_r1_1', 'evt_r1_1', 'evt_r1_2']);
    const page = await s.deliveries.list({ accountId: 'usr_a', ruleId: 'r1' }, { limit: 10 });
    expect(page.data.map((d) => [d.eventId, d.status, d.attempts])).toEqual([
      ['evt_r1_2', 'delivered', 1],
      ['evt_r1_1', 'delivered', 3],
    ]);
  });

  it('fails a delivery for good after the schedule and reports its rule; 410 disables the endpoint', async () => {
    const s = await setup((body) => (idOf(body) === 'evt_r2_1' ? 503 : 410));
    s.add('r2', 1);
    await s.sender.start();
    await until(() => s.exhausted.includes('r2'));
    expect(s.sent).toHaveLength(4); // first attempt + 3 retries
    s.add('r3', 1);
    s.sender.wake();
    await until(() => s.exhausted.includes('r3'));
    await s.sender.stop();
    expect((await s.endpoints.findById('wh_1'))!.status).toBe('disabled');
  });
});
