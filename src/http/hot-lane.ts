import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteOptions } from 'fastify';
import { type Permission, type Principal, candidateTokenHash } from '../modules/accounts/index.ts';
import type { HttpSeries, Metrics } from '../observability/metrics.ts';
import type { LimitDecision, RateLimiter } from '../shared/rate-limiter.ts';
import { bearerTokenOf } from './credentials.ts';
import { policyValue, rateLimitWindowMs, stateValue } from './rate-limit-headers.ts';
import { compressionThreshold, encodedAs, etagOf, preferredEncoding } from './encoded-body.ts';
import { requestIdOf } from './request-id.ts';
import { securityHeadersFor } from './security-headers.ts';

/**
 * What a hot route answers for a request it recognises: the bytes (serialized once per refresh by the
 * service) and the headers beyond the common ones, or `undefined` to let the full pipeline answer.
 */
export interface HotAnswer {
  body: Buffer;
  headers?: ReadonlyArray<readonly [string, string]>;
}

/**
 * A route's hot answer. `query` is the raw query string (no `?`). It must return `undefined` for anything
 * it does not recognise exactly as the common case (a parameter to normalize, an unknown one, anything
 * percent-encoded): the full pipeline then validates and answers it.
 */
export type HotHandler = (query: string, principal: Principal) => HotAnswer | undefined;

export interface HotLaneDeps {
  /**
   * The principal of a token, by its hash, whose cache entry is fresh; `undefined` when storage would have to
   * be asked.
   */
  peekTokenHash(hash: string): Principal | undefined;
  limiter: RateLimiter;
  metrics: Pick<Metrics, 'http' | 'hotLane'>;
  usage?: { record(accountId: string, method: string, route: string, rateLimited: boolean): void };
}

interface HotRoute {
  pattern: string;
  served: { inc(): void };
  /** The route's series of 200 answers, resolved once. */
  ok: HttpSeries;
  permission: Permission;
  answer: HotHandler;
  common: string[];
}

const precharged = Symbol('meridian.precharged');
type Precharged = IncomingMessage & { [precharged]?: LimitDecision };

/**
 * The hot lane: the most frequent requests — an authenticated GET of a body the service serialized ahead of
 * time (the account, the market snapshot, a predictions page) — answered on `node:http` directly, before
 * Fastify builds its request and reply objects and runs its hook and send pipelines. Measured under load,
 * that machinery costs about as much CPU per request as everything node:http itself does
 * (docs/adr/0014-hot-lane.md), and no Fastify option removes it for a route.
 *
 * The lane answers only the common case and only when it can do so without I/O: a Bearer token already in the
 * token cache, a permission the token has, a query the route recognises as canonical, a synchronous rate
 * limiter that admits the request. Everything else — no or another credential, a console session, an
 * `Origin` (CORS), a conditional or a HEAD request, a parameter to validate or normalize, a 429 — is handed
 * to Fastify unchanged, so errors, validation and the rare cases have one implementation. A charge the lane
 * already made travels with the request (`prechargedDecision`), so a handed-over request is never charged
 * twice. The answer is the same bytes and headers the Fastify route sends (a test compares them), counted in
 * the same metrics series and API usage.
 */
export function createHotLane(deps: HotLaneDeps) {
  const { limiter, metrics, usage } = deps;
  const routes = new Map<string, HotRoute>();
  /**
   * Per connection, the `Authorization` header last admitted here and its token's hash. Hashing the token
   * (SHA-256) was the largest part of the lane's own work, and a keep-alive client sends the same header on
   * every request, so a connection's repeat is resolved by comparing strings. The principal still comes from
   * the token cache on every request, so a revocation or expiry applies at once. The entry lives and dies
   * with the socket (as HTTP/2 keeps header values per connection in its HPACK table); nothing is logged.
   */
  const admitted = new WeakMap<object, { header: string; hash: string }>();

  /** Called for every route Fastify registers; keeps the ones that declare a hot answer. */
  function register(route: RouteOptions): void {
    const answer = route.config?.hot;
    if (!answer) return;
    // Fastify registers a HEAD twin of every GET route with the same config; HEAD is left to Fastify.
    if (![route.method].flat().includes('GET')) return;
    const permission = route.config?.permission;
    if (!permission || route.url.includes(':'))
      throw new Error(
        `route ${route.url}: a hot answer needs a route without path parameters and a permission`,
      );
    const common: string[] = [];
    for (const [name, value] of securityHeadersFor(route.url)) common.push(name, value);
    routes.set(route.url, {
      pattern: route.url,
      served: metrics.hotLane.batched({ route: route.url }),
      ok: metrics.http.series('GET', route.url, 200),
      permission,
      answer,
      common,
    });
  }

  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || routes.size === 0) return false;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const route = routes.get(mark < 0 ? url : url.slice(0, mark));
    if (route === undefined) return false;
    const h = req.headers;
    if (h.origin !== undefined || h['if-none-match'] !== undefined || h.authorization === undefined)
      return false;
    const started = performance.now();
    const principal = principalOf(req.socket, h.authorization);
    if (principal === undefined || !principal.permissions.has(route.permission)) return false;
    const answer = route.answer(mark < 0 ? '' : url.slice(mark + 1), principal);
    if (answer === undefined) return false;
    const decision = limiter.consume(principal.rateLimitKey, principal.rateLimit, rateLimitWindowMs);
    // The shared (Redis) limiter answers with a promise; the lane stays synchronous and hands over.
    if (decision instanceof Promise) {
      decision.then(
        (settled) => finish(req, res, route, principal, answer, settled, started),
        // The limiter failed: the full pipeline charges again and answers whatever that gives.
        () => fallback?.(req, res),
      );
      return true;
    }
    if (!decision.allowed) {
      (req as Precharged)[precharged] = decision;
      return false;
    }
    write(req, res, route, principal, answer, decision, started);
    return true;
  }

  /** The principal of a Bearer header whose token is in the cache, fresh; `undefined` otherwise. */
  function principalOf(socket: object, header: string): Principal | undefined {
    const known = admitted.get(socket);
    if (known !== undefined && known.header === header) return deps.peekTokenHash(known.hash);
    const token = bearerTokenOf(header);
    const hash = token === undefined ? undefined : candidateTokenHash(token);
    if (hash === undefined) return undefined;
    const principal = deps.peekTokenHash(hash);
    if (principal !== undefined) admitted.set(socket, { header, hash });
    return principal;
  }

  /** Completes a request whose charge was asynchronous (the shared limiter). */
  let fallback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  function finish(
    req: IncomingMessage,
    res: ServerResponse,
    route: HotRoute,
    principal: Principal,
    answer: HotAnswer,
    decision: LimitDecision,
    started: number,
  ) {
    if (decision.allowed) return write(req, res, route, principal, answer, decision, started);
    (req as Precharged)[precharged] = decision;
    fallback?.(req, res);
  }

  function write(
    req: IncomingMessage,
    res: ServerResponse,
    route: HotRoute,
    principal: Principal,
    answer: HotAnswer,
    decision: LimitDecision,
    started: number,
  ) {
    let body = answer.body;
    const headers = [
      'content-type',
      'application/json; charset=utf-8',
      'x-request-id',
      requestIdOf(req),
      ...route.common,
      'ratelimit-policy',
      policyValue(decision.limit),
      'ratelimit',
      stateValue(decision.remaining, decision.resetMs),
      'etag',
      etagOf(body),
    ];
    // The same choice as `sendBytes` (reply.ts), from the same once-per-buffer variants. `Origin` is in
    // `Vary` as the CORS plugin puts it there on every answer (the lane hands requests with an Origin over).
    if (body.length < compressionThreshold) headers.push('vary', 'Origin');
    else {
      headers.push('vary', 'Origin, accept-encoding');
      const encoding = preferredEncoding(req.headers['accept-encoding']);
      if (encoding !== undefined) {
        headers.push('content-encoding', encoding);
        body = encodedAs(body, encoding);
      }
    }
    headers.push('content-length', String(body.length));
    if (answer.headers) for (const [name, value] of answer.headers) headers.push(name, value);
    res.writeHead(200, headers);
    res.end(body);
    route.ok.record((performance.now() - started) / 1000);
    usage?.record(principal.userId, 'GET', route.pattern, false);
    route.served.inc();
  }

  return {
    register,
    serve,
    /** Where a request the lane could not finish goes (Fastify's handler), set when the server is built. */
    handOverTo(handler: (req: IncomingMessage, res: ServerResponse) => void) {
      fallback = handler;
    },
  };
}

/** The rate-limit decision the hot lane already made for a request it handed over, if any. */
export function prechargedDecision(req: IncomingMessage): LimitDecision | undefined {
  return (req as Precharged)[precharged];
}

/**
 * The parameters of a query string in the plain form a hot answer accepts: each of `allowed` at most once,
 * nothing else, no percent-encoding or `+`, no empty value. `undefined` for anything else (the full pipeline
 * then decodes, validates and answers it).
 */
export function plainQuery<K extends string>(
  query: string,
  allowed: readonly K[],
): Partial<Record<K, string>> | undefined {
  const params: Partial<Record<K, string>> = {};
  if (query === '') return params;
  if (query.includes('%') || query.includes('+')) return undefined;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) return undefined;
    const name = pair.slice(0, eq) as K;
    if (!allowed.includes(name) || params[name] !== undefined) return undefined;
    params[name] = pair.slice(eq + 1);
  }
  return params;
}
