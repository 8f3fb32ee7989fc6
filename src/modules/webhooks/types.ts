import type { EventType } from '../events/index.ts';

/** `unverified`: an email channel whose address has not confirmed its code yet (nothing is sent to it). */
export type EndpointStatus = 'enabled' | 'disabled' | 'unverified';

/** What an outbox endpoint is: a signed webhook, or an alert channel a person reads. */
export const CHANNEL_KINDS = ['webhook', 'email', 'telegram', 'discord', 'slack'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A pending email address verification: the code's hash, its expiry, the wrong codes tried. */
export interface Verification {
  hash: string;
  expiresAt: number;
  tries: number;
}

/**
 * An outbox endpoint. For a webhook `secretSealed` is its signing secret and `url` its URL; for an alert channel
 * `secretSealed` is the channel's credentials (JSON: bot token and chat id, webhook URL, address) and `url` a
 * display of the target with nothing secret in it.
 */
export interface WebhookEndpoint {
  id: string;
  kind: ChannelKind;
  /** The user's label (alert channels). */
  name: string | null;
  accountId: string;
  url: string;
  events: EventType[];
  description: string | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  status: EndpointStatus;
  disabledReason: string | null;
  verification: Verification | null;
  createdAt: number;
  updatedAt: number;
}

/** `capped`: not sent, recorded, because the rule or the account reached its hourly message cap. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'capped';

export interface Delivery {
  /** The `webhook-id`: stable for this event and endpoint across every retry. */
  id: string;
  endpointId: string;
  channel: ChannelKind;
  accountId: string;
  eventSeq: number;
  eventId: string;
  eventType: EventType;
  ruleId: string | null;
  orderKey: string;
  body: string;
  test: boolean;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  leaseUntil: number | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/** How one attempt ended. */
export const ATTEMPT_OUTCOMES = [
  'delivered',
  'http_error',
  'gone',
  'redirect',
  'timeout',
  'refused',
  'network_error',
  'rate_limited',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export interface Attempt {
  deliveryId: string;
  attempt: number;
  startedAt: number;
  latencyMs: number;
  statusCode: number | null;
  outcome: AttemptOutcome;
  error: string | null;
}

export interface DeliveryWithAttempts extends Delivery {
  attemptLog: Attempt[];
}

export type NewDelivery = Omit<
  Delivery,
  'attempts' | 'leaseUntil' | 'lastError' | 'finishedAt' | 'status'
> & {
  /** Set for a delivery recorded as capped (never sent): why. */
  capped?: string;
};
