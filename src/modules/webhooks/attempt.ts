import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { SecretBox, WebhookResponse, WebhookTransport } from './ports.ts';
import type { DeliveriesRepository, EndpointsRepository } from './repository.ts';
import { type RetryPolicy, retryDelay } from './retry.ts';
import { signingSecretsOf } from './service.ts';
import { signatureHeaders } from './signature.ts';
import type { AttemptOutcome, Delivery } from './types.ts';

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

/** What one delivery attempt needs: the endpoint and delivery stores, the transport, the secrets, the clock. */
export interface AttemptDeps {
  endpoints: EndpointsRepository;
  deliveries: DeliveriesRepository;
  transport: WebhookTransport;
  box: SecretBox;
  clock: Clock;
  exhausted: DeliveryExhausted;
  log: SenderLog;
  /** Test hook: runs after an attempt is claimed (committed) and before it is sent. */
  beforeSend?(delivery: Delivery): Promise<void>;
}

const USER_AGENT = 'Meridian-Webhooks/1';

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
 * One attempt at a due delivery: claimed (an attempt counted, a lease taken: committed before anything is sent),
 * signed and posted; the attempt and its outcome recorded together, with the next retry (`retry`) or the end of
 * the delivery, and a 410 disabling the endpoint. `term` is the sender's leader term of the moment.
 */
export function createAttempt(
  deps: AttemptDeps,
  options: { retry: RetryPolicy; leaseMs: number },
  term: () => LeaderTerm | undefined,
) {
  const { deliveries, clock, log } = deps;

  async function attemptOnce(candidate: Delivery) {
    const startedAt = clock.now();
    const delivery = await deliveries.claim(candidate.id, startedAt, startedAt + options.leaseMs, term());
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
        term(),
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
        term(),
      );
      return;
    }
    const settleFailed = () =>
      deliveries.settle(
        attempt,
        { status: 'failed', nextAttemptAt: finishedAt, lastError: error, finishedAt },
        term(),
      );
    if (outcome === 'gone') {
      await settleFailed();
      const failed = await deliveries.disableEndpoint(
        endpoint.id,
        'the receiver answered 410 Gone',
        finishedAt,
        term(),
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
      await settleFailed();
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
      term(),
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

  return attemptOnce;
}
