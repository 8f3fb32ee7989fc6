import type { Attempt, DeliveryWithAttempts, WebhookEndpoint } from './types.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An endpoint as the API shows it: never its secret. */
export function presentEndpoint(e: WebhookEndpoint, now: number) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    // A webhook is never `unverified` (only an email channel waits for its address's code).
    status: e.status as 'enabled' | 'disabled',
    disabledReason: e.disabledReason,
    previousSecretExpiresAt:
      e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now
        ? iso(e.previousSecretExpiresAt)
        : null,
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}

function presentAttempt(a: Attempt) {
  return {
    attempt: a.attempt,
    at: iso(a.startedAt)!,
    outcome: a.outcome,
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
  };
}

export function presentDelivery(d: DeliveryWithAttempts) {
  return {
    id: d.id,
    webhookId: d.endpointId,
    channel: d.channel,
    eventId: d.eventId,
    eventType: d.eventType,
    ruleId: d.ruleId,
    test: d.test,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    lastError: d.lastError,
    createdAt: iso(d.createdAt)!,
    finishedAt: iso(d.finishedAt),
    attemptLog: d.attemptLog.map(presentAttempt),
  };
}
