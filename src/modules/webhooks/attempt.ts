import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type {
  ChannelFormats,
  MailTransport,
  OutboundMessage,
  SecretBox,
  WebhookResponse,
  WebhookTransport,
} from './ports.ts';
import type { DeliveriesRepository, EndpointsRepository } from './repository.ts';
import { type RetryPolicy, retryDelay } from './retry.ts';
import type { AttemptOutcome, Delivery, WebhookEndpoint } from './types.ts';
import { webhookFormat } from './webhook-format.ts';

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

/**
 * What one delivery attempt needs: the endpoint and delivery stores, the transports (HTTP behind the address
 * policy for webhooks and chat APIs; SMTP for email, when the operator configured a server), each alert
 * channel's format (webhooks have theirs built in), the secrets, the clock.
 */
export interface AttemptDeps {
  endpoints: EndpointsRepository;
  deliveries: DeliveriesRepository;
  transport: WebhookTransport;
  mail?: MailTransport;
  formats?: ChannelFormats;
  box: SecretBox;
  clock: Clock;
  exhausted: DeliveryExhausted;
  log: SenderLog;
  /** Test hook: runs after an attempt is claimed (committed) and before it is sent. */
  beforeSend?(delivery: Delivery): Promise<void>;
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
  if (status === 429)
    return {
      outcome: 'rate_limited',
      statusCode: status,
      error: `the receiver answered 429 (rate limited)${response.retryAfterMs !== undefined ? `; retry after ${response.retryAfterMs} ms` : ''}`,
    };
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
    const response = await send(endpoint, delivery, sentAt);
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
    const backoff = retryDelay(options.retry, delivery.attempts);
    // A rate-limited answer's own wait is honoured when it is longer than the schedule's.
    const delay =
      backoff === undefined || response.kind !== 'response' || response.retryAfterMs === undefined
        ? backoff
        : Math.max(backoff, response.retryAfterMs);
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

  /** Composes the delivery for its channel and sends it through that channel's transport. */
  async function send(
    endpoint: WebhookEndpoint,
    delivery: Delivery,
    sentAt: number,
  ): Promise<WebhookResponse> {
    const format = endpoint.kind === 'webhook' ? webhookFormat : deps.formats?.[endpoint.kind];
    if (!format)
      return { kind: 'network_error', error: `no ${endpoint.kind} channel on this server`, latencyMs: 0 };
    let message: OutboundMessage;
    try {
      message = format.compose({ endpoint, delivery, box: deps.box, sentAt });
    } catch (error) {
      return {
        kind: 'network_error',
        error: `the message could not be composed: ${(error as Error).message}`.slice(0, 300),
        latencyMs: 0,
      };
    }
    if (message.via === 'http') return deps.transport.send(message.request);
    if (!deps.mail)
      return {
        kind: 'network_error',
        error: 'no SMTP server is configured (MERIDIAN_SMTP_URL)',
        latencyMs: 0,
      };
    return deps.mail.send(message.message);
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
