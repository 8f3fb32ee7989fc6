import { createHash } from 'node:crypto';
import type { AccountEvent } from '../events/index.ts';
import type { WebhookEndpoint } from './types.ts';

/** Where an account event goes: its delivery id per endpoint, the rule it is attributed to, the endpoints. */

/** The `webhook-id` of an event sent to an endpoint: the same on every retry, derived so it can never differ. */
export function deliveryId(eventId: string, endpointId: string): string {
  return `msg_${createHash('sha256').update(`${eventId}\n${endpointId}`).digest('base64url').slice(0, 27)}`;
}

interface RuleRef {
  id: string;
  webhookIds?: string[];
  /** Alert channels (ch_…) the rule names: they receive only the events of rules naming them. */
  channelIds: string[];
}

/**
 * `data.rule` of an event body: the rule it is attributed to and, if it names any, the webhooks it goes to. An
 * empty `webhookIds` list names none: the event goes to every subscribed endpoint, as for an event without a rule.
 */
export function ruleOf(body: string): RuleRef | undefined {
  try {
    const parsed = JSON.parse(body) as {
      data?: { rule?: { id?: unknown; channels?: { webhookIds?: unknown; channelIds?: unknown } } };
    };
    const rule = parsed.data?.rule;
    if (!rule || typeof rule.id !== 'string') return undefined;
    const ids = rule.channels?.webhookIds;
    const channelIds = rule.channels?.channelIds;
    return {
      id: rule.id,
      channelIds: Array.isArray(channelIds)
        ? channelIds.filter((x): x is string => typeof x === 'string')
        : [],
      webhookIds:
        Array.isArray(ids) && ids.length > 0
          ? ids.filter((x): x is string => typeof x === 'string')
          : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * Which endpoints receive an event: the account's, subscribed to its type, existing when it happened; a webhook
 * when the rule names no webhook or names it, an alert channel only when the rule names it.
 */
export function matchEndpoints(
  event: AccountEvent,
  endpoints: readonly WebhookEndpoint[],
): WebhookEndpoint[] {
  const rule = ruleOf(event.body);
  return endpoints.filter(
    (e) =>
      e.accountId === event.accountId &&
      e.status === 'enabled' &&
      e.events.includes(event.type) &&
      e.createdAt <= event.createdAt &&
      (e.kind === 'webhook'
        ? rule?.webhookIds === undefined || rule.webhookIds.includes(e.id)
        : rule?.channelIds.includes(e.id) === true),
  );
}
