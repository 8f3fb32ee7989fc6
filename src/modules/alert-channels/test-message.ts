import { newId } from '../../shared/ids.ts';
import type { NewDelivery, WebhookEndpoint } from '../webhooks/index.ts';

/** The template of a channel's test message (rendered, escaped and marked `[test]` like any delivery). */
export const CHANNEL_TEST_TEMPLATE =
  'This is a test message for your alert channel {{rule_name}}. Alerts of rules that name this channel arrive here like this. Sent at {{time}}.';

/** Test messages one channel may be sent per hour (`POST /api/alert-channels/:id/test`). */
export const CHANNEL_TESTS_PER_HOUR = 10;

/**
 * A channel's test message as an outbox row: an `alert.triggered`-shaped body with `test: true` and no rule,
 * so the channel's format renders it with the same template renderer and `[test]` label as a rule's message,
 * and it is never counted against a rule's or the account's message caps. Its own order key: it waits for
 * nothing queued to the channel.
 */
export function channelTestDelivery(
  endpoint: WebhookEndpoint,
  eventSeq: number,
  now: number,
): NewDelivery & { body: string } {
  const eventId = newId('evt');
  const time = new Date(now).toISOString();
  const id = `msg_test_${eventId.slice(4)}`;
  const body = JSON.stringify({
    id: eventId,
    type: 'alert.triggered',
    version: 1,
    timestamp: time,
    test: true,
    data: {
      rule: {
        name:
          endpoint.name ?? (endpoint.kind === 'telegram' ? endpoint.url : `${endpoint.kind} ${endpoint.url}`),
        type: 'channel_test',
        template: CHANNEL_TEST_TEMPLATE,
      },
      trigger: { firedAt: time, test: true },
      channel: { id: endpoint.id, type: endpoint.kind },
      note: 'a test message of the alert channel: no rule fired',
    },
  });
  return {
    id,
    endpointId: endpoint.id,
    channel: endpoint.kind,
    accountId: endpoint.accountId,
    eventSeq,
    eventId,
    eventType: 'alert.triggered',
    ruleId: null,
    orderKey: `channel-test:${id}`,
    body,
    test: true,
    nextAttemptAt: now,
    createdAt: now,
  };
}
