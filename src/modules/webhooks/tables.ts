import type { Generated } from 'kysely';

/** A receiver URL of one account, with its signing secret sealed (and the previous one during a rotation). */
export interface WebhookEndpointsTable {
  id: string;
  kind: Generated<string>;
  name: string | null;
  verify_hash: string | null;
  verify_expires_at: number | null;
  verify_tries: Generated<number>;
  account_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  status: string;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * The outbox: one row per (event, endpoint), unique, written before anything is sent. `id` is the
 * `webhook-id` every attempt carries, so a receiver drops a retry it has already processed. `order_key` (the
 * rule id when the event has one) serializes deliveries to one endpoint: the next waits for the one before.
 */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  channel: Generated<string>;
  account_id: string;
  event_seq: number;
  event_id: string;
  event_type: string;
  rule_id: string | null;
  order_key: string;
  body: string;
  test: boolean;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: number;
  latency_ms: number;
  status_code: number | null;
  outcome: string;
  error: string | null;
}

export interface WebhookSenderStateTable {
  name: string;
  cursor: number;
  updated_at: number;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_sender_state: WebhookSenderStateTable;
}
