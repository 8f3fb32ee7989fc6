import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import {
  type AddressPolicy,
  isIpLiteral,
  type WebhookResponse,
  type WebhookTransport,
} from '../../modules/webhooks/index.ts';

export interface GuardedTransportOptions {
  policy: AddressPolicy;
  /** Whole-attempt limit: connect, headers and body (10 s). */
  timeoutMs: number;
  /** Name resolution (tests substitute one that answers like a rebinding DNS server). */
  lookup?: typeof dnsLookup;
  /** Largest response body read (then discarded). */
  maxResponseBytes?: number;
}

const REFUSED = 'EWEBHOOKREFUSED';

function refusedError(message: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `connection refused by the webhook address policy: ${message}`,
  );
  error.code = REFUSED;
  return error;
}

const unbracket = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * The HTTP client for webhook deliveries (undici), with the address policy inside its own connect step: a
 * host name is resolved by a lookup that drops every address the policy refuses (so the socket can only be
 * opened to an allowed one — no second resolution can differ from the one checked), an IP literal is checked
 * before connecting, and the connected socket's peer address is checked once more before a byte is sent.
 * Redirects are never followed (undici's `request` does not), and each attempt has one overall deadline.
 */
export function createGuardedTransport(options: GuardedTransportOptions): WebhookTransport {
  const { policy, timeoutMs } = options;
  const resolve = options.lookup ?? dnsLookup;
  const maxResponseBytes = options.maxResponseBytes ?? 65_536;

  const guardedLookup = ((
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const reasons: string[] = [];
      const allowed = addresses.filter((a) => {
        const reason = policy.refusal(a.address, hostname);
        if (reason) reasons.push(reason);
        return !reason;
      });
      if (!allowed.length)
        return callback(refusedError(`${hostname} resolves to ${reasons.join(', ') || 'nothing'}`));
      if (lookupOptions.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as unknown as LookupFunction;

  const connector = buildConnector({ lookup: guardedLookup, timeout: timeoutMs });
  const agent = new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: 64,
    connect(connectOptions, callback) {
      const host = unbracket(connectOptions.hostname);
      if (isIpLiteral(host)) {
        const reason = policy.refusal(host, host);
        if (reason) return callback(refusedError(reason), null);
      }
      connector(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        const peer = socket.remoteAddress;
        const reason = peer ? policy.refusal(peer, host) : 'the peer address is unknown';
        if (reason) {
          socket.destroy();
          return callback(refusedError(reason), null);
        }
        callback(null, socket);
      });
    },
  });

  return {
    async send({ url, headers, body }): Promise<WebhookResponse> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const response = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Only the status counts, and a 429's wait: its Retry-After header or its JSON body's retry_after.
        const answer =
          response.statusCode === 429
            ? await response.body.text().catch(() => '')
            : await response.body.dump({ limit: maxResponseBytes }).then(
                () => '',
                () => '',
              );
        const location = response.headers.location;
        const retryAfterMs =
          response.statusCode === 429 ? retryAfterOf(response.headers['retry-after'], answer) : undefined;
        return {
          kind: 'response',
          statusCode: response.statusCode,
          location: typeof location === 'string' ? location : undefined,
          latencyMs: elapsed(),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
      } catch (error) {
        return { ...classify(error, timeoutMs), latencyMs: elapsed() };
      }
    },
    close: () => agent.close(),
  };
}

function classify(
  error: unknown,
  timeoutMs: number,
): { kind: 'timeout' | 'refused' | 'network_error'; error: string } {
  // The error and its causes (undici wraps the socket's error), at most five deep.
  const chain: Array<{ code?: string; name?: string; message?: string }> = [];
  for (let e: unknown = error, i = 0; typeof e === 'object' && e !== null && i < 5; i++) {
    const link = e;
    const text = (key: string) => {
      const value: unknown = Reflect.get(link, key);
      return typeof value === 'string' ? value : undefined;
    };
    chain.push({ code: text('code'), name: text('name'), message: text('message') });
    e = Reflect.get(link, 'cause');
  }
  const refused = chain.find((e) => e.code === REFUSED);
  if (refused) return { kind: 'refused', error: refused.message ?? 'refused by the address policy' };
  if (
    chain.some(
      (e) =>
        e.name === 'TimeoutError' ||
        e.code === 'UND_ERR_CONNECT_TIMEOUT' ||
        e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
        e.code === 'UND_ERR_BODY_TIMEOUT',
    )
  )
    return { kind: 'timeout', error: `no answer within ${timeoutMs} ms` };
  const first = chain.find((e) => e.code) ?? chain[0];
  return {
    kind: 'network_error',
    error: `${first?.code ? `${first.code}: ` : ''}${first?.message ?? String(error)}`.slice(0, 300),
  };
}

const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * A rate-limited answer's wait, in ms (at most an hour): the JSON body's `parameters.retry_after` (Telegram Bot
 * API, seconds) or `retry_after` (Discord, seconds, fractional), else the Retry-After header (seconds or an
 * HTTP date; Slack and Discord).
 */
export function retryAfterOf(header: string | string[] | undefined, body: string): number | undefined {
  let seconds: number | undefined;
  try {
    const json = JSON.parse(body) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const value = json.parameters?.retry_after ?? json.retry_after;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) seconds = value;
  } catch {
    // not JSON: the header decides
  }
  const text = Array.isArray(header) ? header[0] : header;
  if (seconds === undefined && text) {
    const n = Number(text);
    if (Number.isFinite(n) && n >= 0) seconds = n;
    else {
      const date = Date.parse(text);
      if (Number.isFinite(date)) seconds = Math.max(0, (date - Date.now()) / 1000);
    }
  }
  return seconds === undefined ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.ceil(seconds * 1000));
}
