import {
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
  type onRequestHookHandler,
} from 'fastify';
import type { Metrics } from '../../observability/metrics.ts';

/** Where a finished request of an account is counted (the usage counter: memory, flushed periodically). */
export interface UsageRecorder {
  /** `client`: `console` for a console session, else the API token's id. */
  record(accountId: string, client: string, method: string, route: string, rateLimited: boolean): void;
}
import { securityHeadersFor } from '../security-headers.ts';
import type { App } from '../types.ts';
import type { CorsPolicy } from './cors.ts';
import type { HostAllowList } from './host-allow-list.ts';

export interface RequestContextOptions {
  /** The route's authentication guard, if it has one (see the auth plugin). */
  guardFor(route: RouteOptions): onRequestHookHandler | undefined;
  cors: CorsPolicy;
  hosts: HostAllowList;
}

/**
 * What every request gets from the server: the request id and the route's fixed headers on the response,
 * the `Host` check (host-allow-list.ts), CORS, its route counted in the metrics (see `RequestsObserved`), and the route's authentication guard. The
 * per-request part is attached to each route when it is registered, as one synchronous hook that does all of
 * it: each app-wide hook is another turn of Fastify's hook runner on every request, and reading
 * `request.routeOptions` builds a 12-field object per access. Requests that match no route get their request
 * id with the problem document (`sendProblem`) and are counted as `unmatched`.
 *
 * Must be registered before any plugin that adds routes, so that their routes get the hook too.
 */
export function registerRequestContext(app: App, options: RequestContextOptions): void {
  const { guardFor, cors, hosts } = options;
  app.decorateRequest('routePattern', undefined);
  app.addHook('onRoute', (route) => {
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [entryHook(route.url, cors, hosts, guardFor(route)), ...own];
  });
}

/**
 * Fastify's log controller (its documented extension point for the per-request log lines), here also where
 * each finished request is counted: Fastify calls `requestCompleted` for every response it sends anyway, so
 * the metrics and the debug line need no `onResponse` hook, which would be one more turn of Fastify's hook
 * runner on every request. Fastify's own request lines stay off.
 */
export class RequestsObserved extends LogController {
  readonly #metrics: Metrics['http'];
  readonly #logEachRequest: boolean;
  readonly #usage: UsageRecorder | undefined;

  /** `logEachRequest`: a debug line per request (LOG_LEVEL debug or trace). */
  constructor(metrics: Metrics['http'], logEachRequest: boolean, usage?: UsageRecorder) {
    super({ disableRequestLogging: true });
    this.#metrics = metrics;
    this.#logEachRequest = logEachRequest;
    this.#usage = usage;
  }

  override requestCompleted(_error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    this.#metrics
      .series(request.method, request.routePattern ?? 'unmatched', reply.statusCode)
      .record(reply.elapsedTime / 1000);
    const account = request.accountId;
    if (account !== undefined && this.#usage) {
      this.#usage.record(
        account,
        request.usageClient!,
        request.method,
        request.routePattern ?? 'unmatched',
        reply.statusCode === 429,
      );
    }
    if (this.#logEachRequest) {
      request.log.debug(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
  }
}

/**
 * The headers every answer of a route carries, as one flat list built when the route is registered: the
 * security headers, and `Vary: Origin` (CORS answers differ by `Origin`).
 */
function fixedHeadersOf(pattern: string): string[] {
  const flat: string[] = [];
  for (const [name, value] of securityHeadersFor(pattern)) flat.push(name, value);
  flat.push('vary', 'Origin');
  return flat;
}

function entryHook(
  pattern: string,
  cors: CorsPolicy,
  hosts: HostAllowList,
  guard: onRequestHookHandler | undefined,
): onRequestHookHandler {
  const fixed = fixedHeadersOf(pattern);
  return function (request, reply, done) {
    reply.header('x-request-id', request.id);
    for (let i = 0; i < fixed.length; i += 2) reply.header(fixed[i]!, fixed[i + 1]!);
    request.routePattern = pattern;
    const misdirected = hosts.refusal(request.headers.host);
    if (misdirected) return done(misdirected);
    cors.apply(request, reply);
    if (guard) guard.call(this, request, reply, done);
    else done();
  };
}
