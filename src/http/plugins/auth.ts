import type { FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import {
  type AccountsService,
  type Permission,
  type Principal,
  candidateTokenHash,
} from '../../modules/accounts/index.ts';
import type { Metrics } from '../../observability/metrics.ts';
import { AppError } from '../../shared/errors.ts';
import { CONSOLE_CLIENT } from '../../modules/usage/index.ts';
import type { LimitDecision, RateLimiter } from '../../shared/rate-limiter.ts';
import {
  type FailedAuthLimiter,
  bearerChallenge,
  bearerTokenOf,
  checkSessionCsrf,
  failureKeys,
  requirePermission,
  sessionCookieOf,
} from '../credentials.ts';
import type { App, RouteAccess } from '../types.ts';
import { policyValue, rateLimitHeaders, rateLimitWindowMs, stateValue } from '../rate-limit-headers.ts';

/** The header a console session names the organization it acts in with (default: the personal one). */
export const ORGANIZATION_HEADER = 'meridian-organization';

const organizationOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[ORGANIZATION_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** A token acts in its own organization only: a header naming another is refused, never silently ignored. */
function checkTokenOrganization(request: FastifyRequest, principal: Principal): void {
  const named = organizationOf(request);
  if (named !== undefined && named !== principal.orgId)
    throw new AppError(
      'forbidden',
      `this token acts in organization ${principal.orgId} only; issue a token in ${named} to act there`,
    );
}

/** What the auth plugin needs from the rest of the process. */
export interface AuthDeps {
  accounts: Pick<AccountsService, 'authenticateToken' | 'authenticateSession' | 'peekTokenHash'>;
  limiter: RateLimiter;
  metrics: Pick<Metrics, 'rateLimited'>;
  /** The one counter of failed authentications (shared with the sign-in route). */
  failures: FailedAuthLimiter;
}

/**
 * Resolves the caller of every request once (API token or console session), enforces the route's
 * permission, and charges the account's rate limit. Order matters: failed authentication is charged to the
 * client address, never to an account; an account is charged only once it is authenticated and allowed.
 */
export function registerAuth(app: App, deps: AuthDeps) {
  const { accounts, limiter, metrics, failures } = deps;

  /**
   * Sends a refused credential through its failure counter. Storage being unreachable is not a failure of
   * the credential: it is answered as such (503), uncounted.
   */
  function refused(key: () => string, error: unknown): Promise<never> {
    // Only a refused credential (401) counts; a valid one refused an organization (403/404) does not.
    if (error instanceof AppError && error.status === 401) return failures.fail(key(), error);
    throw error;
  }

  /** Runs a credential check, routing its failures (thrown or rejected) through `refused`. */
  function checked(
    key: () => string,
    check: () => Principal | Promise<Principal>,
  ): Principal | Promise<Principal> {
    let result: Principal | Promise<Principal>;
    try {
      result = check();
    } catch (error) {
      return refused(key, error);
    }
    return result instanceof Promise ? result.catch((error) => refused(key, error)) : result;
  }

  /**
   * Per connection, the `Authorization` header last admitted on it and its token's hash. A keep-alive client
   * sends the same header on every request, and hashing the token was the largest part of authenticating
   * one; a repeat is resolved by comparing strings. The principal still comes from the token cache every
   * time, so a revocation or expiry applies at once. The entry lives and dies with the socket.
   */
  const admitted = new WeakMap<object, { header: string; hash: string }>();

  /** A Bearer token admitted before on this connection, still fresh in the token cache. */
  function admittedBefore(request: FastifyRequest, header: string): Principal | undefined {
    const known = admitted.get(request.raw.socket);
    return known !== undefined && known.header === header ? accounts.peekTokenHash(known.hash) : undefined;
  }

  /** Notes a token the cache admitted synchronously, for the connection's next requests. */
  function noteAdmitted(request: FastifyRequest, header: string, token: string): void {
    const hash = candidateTokenHash(token);
    if (hash !== undefined) admitted.set(request.raw.socket, { header, hash });
  }

  /**
   * Identifies the caller; used by REST hooks and by the WebSocket upgrade. Synchronous on the hot path (a
   * cached token); a promise when storage or the shared limiter is involved.
   */
  function authenticate(
    request: FastifyRequest,
    mode: 'token' | 'session',
    tokenOverride?: string,
  ): Principal | Promise<Principal> {
    const header = request.headers.authorization;
    if (tokenOverride !== undefined || header) {
      if (mode === 'session') {
        // Console-only routes manage credentials and membership (tokens, organizations, two-factor, OAuth clients).
        throw new AppError(
          'forbidden',
          `${request.method} ${request.routeOptions.url ?? request.url} is console-only: API tokens are refused here; sign in to the console (POST /auth/login)`,
        );
      }
      let secret = tokenOverride;
      if (secret === undefined && header) {
        const known = admittedBefore(request, header);
        if (known !== undefined) return known;
      }
      if (secret === undefined) {
        secret = bearerTokenOf(header ?? '');
        if (secret === undefined) {
          return failures.fail(
            failureKeys.malformed(header ?? ''),
            new AppError('unauthenticated', 'the Authorization header must be "Bearer <token>"'),
          );
        }
      }
      const token = secret;
      const principal = checked(
        () => failureKeys.token(request, token),
        () => accounts.authenticateToken(token),
      );
      if (header && tokenOverride === undefined && !(principal instanceof Promise))
        noteAdmitted(request, header, token);
      return principal;
    }
    const cookie = sessionCookieOf(request);
    if (cookie)
      return checked(
        () => failureKeys.address(request),
        () => accounts.authenticateSession(cookie, organizationOf(request)),
      );
    throw new AppError(mode === 'session' ? 'session_required' : 'unauthenticated', undefined, {
      headers: { 'www-authenticate': bearerChallenge },
    });
  }

  /** Charges one request to the account; throws 429 when its window is full. */
  function charge(principal: Principal, reply: FastifyReply): void | Promise<void> {
    const decision = limiter.consume(principal.rateLimitKey, principal.rateLimit, rateLimitWindowMs);
    if (decision instanceof Promise) return decision.then((settled) => applyDecision(settled, reply));
    applyDecision(decision, reply);
  }

  function applyDecision(decision: LimitDecision, reply: FastifyReply) {
    if (!decision.allowed) {
      metrics.rateLimited.inc({ reason: 'account' });
      const headers = rateLimitHeaders(decision.limit, decision.remaining, decision.resetMs);
      throw new AppError(
        'rate_limited',
        `the account's limit of ${decision.limit} requests per 60 seconds is used up`,
        {
          headers: { ...headers, 'retry-after': String(Math.ceil(decision.resetMs / 1000)) },
        },
      );
    }
    // Set one by one: every /api request passes here, and a headers object would be built only to be copied.
    reply.header('ratelimit-policy', policyValue(decision.limit));
    reply.header('ratelimit', stateValue(decision.remaining, decision.resetMs));
  }

  app.decorateRequest('principal', undefined);
  app.decorateRequest('accountId', undefined);
  app.decorateRequest('usageClient', undefined);

  /** Permission check and rate-limit charge for an identified caller. */
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    needed: Permission,
  ): void | Promise<void> {
    if (principal.kind === 'session') checkSessionCsrf(request);
    else checkTokenOrganization(request, principal);
    requirePermission(principal, needed);
    // From here the request counts in the organization's API usage, a 429 included (request-context.ts).
    request.accountId = principal.orgId;
    request.usageClient = principal.kind === 'session' ? CONSOLE_CLIENT : (principal.tokenId ?? 'token');
    const charged = charge(principal, reply);
    if (charged instanceof Promise) {
      return charged.then(() => {
        request.principal = principal;
      });
    }
    request.principal = principal;
  }

  /**
   * The route's authentication, built once per route with its mode and permission (no per-request lookup
   * of the route's options) and run by the route's entry hook (request-context.ts). Callback style rather than
   * async: with a cached token and the in-process limiter the whole check is synchronous, and the request
   * moves on without a promise turn.
   */
  function guard(mode: 'token' | 'session', needed: Permission): onRequestHookHandler {
    return (request, reply, done) => {
      let pending: void | Promise<void>;
      try {
        const principal = authenticate(request, mode);
        pending =
          principal instanceof Promise
            ? principal.then((resolved) => admit(request, reply, resolved, needed))
            : admit(request, reply, principal, needed);
      } catch (error) {
        return done(error as Error);
      }
      if (pending) pending.then(() => done(), done);
      else done();
    };
  }

  // Every authenticated route must say which permission it needs; a route that forgets fails at start-up.
  const catalogue: RouteAccess[] = [];
  /** The guard a route gets (none for public routes); noted in the catalogue of authenticated routes. */
  function guardFor(route: RouteOptions): onRequestHookHandler | undefined {
    const mode = route.config?.auth ?? (route.url.startsWith('/api/') ? 'token' : 'none');
    if (mode === 'none') return undefined;
    const permission = route.config?.permission;
    if (!permission) throw new Error(`route ${route.url} needs a permission in its config`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') catalogue.push({ method, url: route.url, mode, permission });
    }
    return guard(mode, permission);
  }

  return { authenticate, charge, guardFor, failures, routes: () => catalogue as readonly RouteAccess[] };
}

export type AuthApi = ReturnType<typeof registerAuth>;
