import type { EventType } from '../events/index.ts';

export type EndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: EventType[];
  description: string | null;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  status: EndpointStatus;
  disabledReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** The `webhook-id`: stable for this event and endpoint across every retry. */
  id: string;
  endpointId: string;
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

export type NewDelivery = Omit<Delivery, 'attempts' | 'leaseUntil' | 'lastError' | 'finishedAt' | 'status'>;
