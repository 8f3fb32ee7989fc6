import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../events/index.ts';
import type { WebhookEndpoint } from './model.ts';
import { maxAttempts, retryDelay } from './retry.ts';
import { deliveryId, matchEndpoints, ruleOf } from './sender.ts';

const endpoint = (over: Partial<WebhookEndpoint>): WebhookEndpoint => ({
  id: 'wh_1',
  accountId: 'usr_a',
  url: 'https://example.com/',
  events: ['alert.triggered', 'onchain.flow'],
  description: null,
  secretSealed: 'x',
  previousSecretSealed: null,
  previousSecretExpiresAt: null,
  status: 'enabled',
  disabledReason: null,
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
    expect(ids(event({ rule: { id: 'alr_1', channels: { webhookIds: [] } } }))).toEqual([]);
    expect(ruleOf(event({ rule: { id: 'alr_9' } }).body)).toEqual({ id: 'alr_9', webhookIds: undefined });
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
