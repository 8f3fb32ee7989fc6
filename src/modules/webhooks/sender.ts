import { createHash } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { AccountEvent, EventsRepository } from '../events/index.ts';
import type { SecretBox, WebhookResponse, WebhookTransport } from './ports.ts';
import type { DeliveriesRepository, EndpointsRepository } from './repository.ts';
import { type RetryPolicy, retryDelay } from './retry.ts';
import { signingSecretsOf } from './service.ts';
import { signatureHeaders } from './signature.ts';
import type { AttemptOutcome, Delivery, NewDelivery, WebhookEndpoint } from './types.ts';

/**
 * Called for each rule with a delivery that will not be tried again (retries exhausted, or its endpoint answered
 * 410); test events excepted.
 */
export interface DeliveryExhausted {
  onExhausted(accountId: string, ruleId: string): Promise<void>;
}

export interface SenderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SenderOptions {
  retry: RetryPolicy;
  /** Deliveries in flight at once to one endpoint. */
  concurrencyPerEndpoint: number;
  /** A claimed attempt's lease: after it, a sender that died mid-attempt has its delivery taken up again. */
  leaseMs: number;
  /** Backstop scan period (the bus wakes the sender at once; a lost publish is caught by this). */
  pollMs: number;
  /**
   * Events younger than this are scanned again on each pass before the cursor moves past them: a producer's
   * transaction can commit a lower `seq` after a higher one is already visible.
   */
  settleMs: number;
  batchSize: number;
}

export const defaultSenderOptions: Omit<SenderOptions, 'retry'> = {
  concurrencyPerEndpoint: 4,
  leaseMs: 30_000,
  pollMs: 1_000,
  settleMs: 30_000,
  batchSize: 500,
};

export interface SenderDeps {
  events: Pick<EventsRepository, 'listAfter'>;
  endpoints: EndpointsRepository;
  deliveries: DeliveriesRepository;
  transport: WebhookTransport;
  box: SecretBox;
  clock: Clock;
  exhausted: DeliveryExhausted;
  /** Subscribes to "new account event" announcements; returns the unsubscribe. */
  onEventAnnounced(wake: () => void): Promise<() => Promise<void>>;
  log: SenderLog;
  /** Test hook: runs after an attempt is claimed (committed) and before it is sent. */
  beforeSend?(delivery: Delivery): Promise<void>;
}

const CURSOR = 'webhook-sender';
const USER_AGENT = 'Meridian-Webhooks/1';

/** The `webhook-id` of an event sent to an endpoint: the same on every retry, derived so it can never differ. */
export function deliveryId(eventId: string, endpointId: string): string {
  return `msg_${createHash('sha256').update(`${eventId}\n${endpointId}`).digest('base64url').slice(0, 27)}`;
}

interface RuleRef {
  id: string;
  webhookIds?: string[];
}

/**
 * `data.rule` of an event body: the rule it is attributed to and, if it names any, the webhooks it goes to. An
 * empty `webhookIds` list names none: the event goes to every subscribed endpoint, as for an event without a rule.
 */
export function ruleOf(body: string): RuleRef | undefined {
  try {
    const parsed = JSON.parse(body) as {
      data?: { rule?: { id?: unknown; channels?: { webhookIds?: unknown } } };
    };
    const rule = parsed.data?.rule;
    if (!rule || typeof rule.id !== 'string') return undefined;
    const ids = rule.channels?.webhookIds;
    return {
      id: rule.id,
      webhookIds:
        Array.isArray(ids) && ids.length > 0
          ? ids.filter((x): x is string => typeof x === 'string')
          : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Which endpoints receive an event: the account's, subscribed to its type, existing when it happened. */
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
      (rule?.webhookIds === undefined || rule.webhookIds.includes(e.id)),
  );
}

function outcomeOf(response: WebhookResponse): {
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
} {
  if (response.kind !== 'response')
    return { outcome: response.kind, statusCode: null, error: response.error };
  const status = response.statusCode;
  if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status, error: null };
  if (status === 410)
    return {
      outcome: 'gone',
      statusCode: status,
      error: 'the receiver answered 410 Gone: endpoint disabled',
    };
  if (status >= 300 && status < 400)
    return {
      outcome: 'redirect',
      statusCode: status,
      error: `redirect${response.location ? ` to ${response.location.slice(0, 200)}` : ''} not followed (answer 2xx at the registered URL)`,
    };
  return { outcome: 'http_error', statusCode: status, error: `the receiver answered ${status}` };
}

/**
 * The webhook sender (a leader-elected job). Two steps, repeated whenever an event is announced, an attempt
 * finishes or a retry falls due (and every `pollMs` as a backstop):
 * 1. ingest — new events from the log (from a persisted cursor) become delivery rows, one per matching endpoint,
 *    unique per (event, endpoint), written together with the cursor in one transaction;
 * 2. dispatch — due deliveries are claimed (an attempt counted, a lease taken: committed before anything is
 *    sent), signed and posted; the attempt and its outcome are recorded together.
 * A sender killed after claiming leaves a leased row that is taken up again when the lease ends; one killed
 * after the receiver got the message but before recording it sends it again with the same `webhook-id`.
 */
export function createWebhookSender(deps: SenderDeps, options: SenderOptions) {
  const { deliveries, clock, log } = deps;
  let running = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  let cursor = 0;
  let term: LeaderTerm | undefined;
  /** Events already turned into deliveries by this process but still inside the settle window. */
  const seen = new Set<number>();
  const inflight = new Map<string, Promise<void>>();
  const perEndpoint = new Map<string, number>();

  async function ingest() {
    let from = cursor;
    for (;;) {
      const batch = await deps.events.listAfter(from, options.batchSize);
      if (!batch.length) return;
      const fresh = batch.filter((e) => !seen.has(e.seq));
      const settledBefore = clock.now() - options.settleMs;
      let settled = cursor;
      for (const e of batch) {
        if (e.createdAt > settledBefore) break;
        settled = e.seq;
      }
      const rows: NewDelivery[] = [];
      if (fresh.length) {
        const endpoints = await deps.endpoints.enabledFor([...new Set(fresh.map((e) => e.accountId))]);
        const now = clock.now();
        for (const event of fresh) {
          const rule = ruleOf(event.body);
          for (const endpoint of matchEndpoints(event, endpoints)) {
            rows.push({
              id: deliveryId(event.id, endpoint.id),
              endpointId: endpoint.id,
              accountId: event.accountId,
              eventSeq: event.seq,
              eventId: event.id,
              eventType: event.type,
              ruleId: rule?.id ?? null,
              orderKey: rule ? `rule:${rule.id}` : `event:${event.id}`,
              body: event.body,
              test: event.test,
              nextAttemptAt: now,
              createdAt: now,
            });
          }
        }
      }
      if (rows.length || settled > cursor)
        await deliveries.enqueue(
          rows,
          settled > cursor ? { name: CURSOR, seq: settled } : undefined,
          clock.now(),
          term,
        );
      for (const e of fresh) seen.add(e.seq);
      if (settled > cursor) {
        cursor = settled;
        for (const seq of seen) if (seq <= cursor) seen.delete(seq);
      }
      from = batch[batch.length - 1]!.seq;
      if (batch.length < options.batchSize) return;
    }
  }

  async function dispatch() {
    // Saturated endpoints are left out of the query and each other endpoint gets at most its cap, taken
    // round-robin: a hanging endpoint with any number of deliveries queued cannot crowd the others out.
    const saturated = [...perEndpoint]
      .filter(([, n]) => n >= options.concurrencyPerEndpoint)
      .map(([id]) => id);
    const due = await deliveries.due(clock.now(), 200, {
      perEndpoint: options.concurrencyPerEndpoint,
      skip: saturated,
    });
    for (const d of due) {
      if (!running) return;
      if (inflight.has(d.id)) continue;
      const busy = perEndpoint.get(d.endpointId) ?? 0;
      if (busy >= options.concurrencyPerEndpoint) continue;
      perEndpoint.set(d.endpointId, busy + 1);
      const attempt = attemptOnce(d)
        .catch((error) => log.error({ err: error, delivery: d.id }, 'webhook attempt failed unexpectedly'))
        .finally(() => {
          inflight.delete(d.id);
          const left = (perEndpoint.get(d.endpointId) ?? 1) - 1;
          if (left > 0) perEndpoint.set(d.endpointId, left);
          else perEndpoint.delete(d.endpointId);
          wake(false);
        });
      inflight.set(d.id, attempt);
    }
  }

  async function attemptOnce(candidate: Delivery) {
    const startedAt = clock.now();
    const delivery = await deliveries.claim(candidate.id, startedAt, startedAt + options.leaseMs, term);
    if (!delivery) return;
    const endpoint = await deps.endpoints.findById(delivery.endpointId);
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    if (endpoint.status !== 'enabled') {
      await deliveries.settle(
        {
          deliveryId: delivery.id,
          attempt: delivery.attempts,
          startedAt,
          latencyMs: 0,
          statusCode: null,
          outcome: 'gone',
          error: 'endpoint disabled',
        },
        { status: 'failed', nextAttemptAt: startedAt, lastError: 'endpoint disabled', finishedAt: startedAt },
        term,
      );
      return;
    }
    await deps.beforeSend?.(delivery);
    const sentAt = clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(
        signingSecretsOf(endpoint, deps.box, sentAt),
        delivery.id,
        Math.floor(sentAt / 1000),
        delivery.body,
      ),
    };
    const response = await deps.transport.send({ url: endpoint.url, headers, body: delivery.body });
    const { outcome, statusCode, error } = outcomeOf(response);
    const finishedAt = clock.now();
    const attempt = {
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      startedAt: sentAt,
      latencyMs: response.latencyMs,
      statusCode,
      outcome,
      error,
    };

    if (outcome === 'delivered') {
      await deliveries.settle(
        attempt,
        {
          status: 'delivered',
          nextAttemptAt: finishedAt,
          lastError: null,
          finishedAt,
        },
        term,
      );
      return;
    }
    if (outcome === 'gone') {
      await deliveries.settle(
        attempt,
        {
          status: 'failed',
          nextAttemptAt: finishedAt,
          lastError: error,
          finishedAt,
        },
        term,
      );
      const failed = await deliveries.disableEndpoint(
        endpoint.id,
        'the receiver answered 410 Gone',
        finishedAt,
        term,
      );
      log.warn(
        { webhook: endpoint.id, account: endpoint.accountId },
        'webhook endpoint answered 410 Gone: disabled',
      );
      await reportExhausted([delivery, ...failed]);
      return;
    }
    const delay = retryDelay(options.retry, delivery.attempts);
    if (delay === undefined) {
      await deliveries.settle(
        attempt,
        {
          status: 'failed',
          nextAttemptAt: finishedAt,
          lastError: error,
          finishedAt,
        },
        term,
      );
      await reportExhausted([delivery]);
      return;
    }
    await deliveries.settle(
      attempt,
      {
        status: 'pending',
        nextAttemptAt: finishedAt + delay,
        lastError: error,
        finishedAt: null,
      },
      term,
    );
  }

  async function reportExhausted(list: Delivery[]) {
    const rules = new Map<string, string>();
    // A test event (POST /api/alerts/:id/test) reports in its own delivery log but does not change the rule.
    for (const d of list) if (d.ruleId && !d.test) rules.set(`${d.accountId}\n${d.ruleId}`, d.accountId);
    for (const [key, accountId] of rules) {
      const ruleId = key.split('\n')[1]!;
      await deps.exhausted
        .onExhausted(accountId, ruleId)
        .catch((error) => log.error({ err: error, rule: ruleId }, 'could not mark the alert rule failing'));
    }
  }

  /** Set by anything that may mean new events (the bus, the backstop timer); an attempt's end only dispatches. */
  let scanLog = true;

  async function pass() {
    if (scanLog) {
      scanLog = false;
      await ingest();
    }
    await dispatch();
  }

  async function schedule() {
    if (!running) return;
    if (timer) clearTimeout(timer);
    const next = await deliveries.nextDueAt();
    const now = clock.now();
    // Something already due but not sent means it waits on an attempt in flight here, whose end wakes us.
    const wait =
      next === undefined
        ? options.pollMs
        : next > now
          ? Math.min(options.pollMs, next - now)
          : inflight.size
            ? options.pollMs
            : 0;
    timer = setTimeout(() => wake(wait === options.pollMs || next === undefined || next > now), wait);
    timer.unref?.();
  }

  function wake(newEvents = true) {
    if (newEvents) scanLog = true;
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      for (;;) {
        do {
          again = false;
          try {
            await pass();
          } catch (error) {
            scanLog = true;
            log.error({ err: error }, 'webhook sender pass failed; retrying on the next wake-up');
          }
        } while (again && running);
        try {
          await schedule();
        } catch (error) {
          log.error({ err: error }, 'webhook sender could not schedule its next pass');
          timer = setTimeout(wake, options.pollMs);
          timer.unref?.();
        }
        if (!again || !running) return;
      }
    })().finally(() => {
      pumping = undefined;
      if (again && running) wake(false);
    });
  }

  return {
    async start(leaderTerm?: LeaderTerm) {
      term = leaderTerm;
      cursor = await deliveries.readCursor(CURSOR);
      running = true;
      unsubscribe = await deps.onEventAnnounced(() => wake());
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await unsubscribe?.();
      unsubscribe = undefined;
      await pumping;
      await Promise.all(inflight.values());
    },
    wake,
    /** Resolves when no pass is running and nothing is in flight (tests and the benchmark). */
    async idle() {
      while (pumping || inflight.size) {
        await pumping;
        await Promise.all(inflight.values());
      }
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
