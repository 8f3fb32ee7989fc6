import { createHash } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { type Permission, type Principal, isWellFormedToken } from '../modules/accounts/index.ts';
import { AppError } from '../shared/errors.ts';
import type { RateLimiter } from '../shared/rate-limiter.ts';

/**
 * Everything about reading and checking a caller's credentials, in one place for REST (plugins/auth.ts) and
 * every WebSocket route (push/handshake.ts): where a credential is found (Bearer header, session cookie,
 * `Sec-WebSocket-Protocol`), the origin checks that keep a console session from being ridden by other sites,
 * the permission check, and the one counter of failed authentications per client address.
 */

export const sessionCookie = 'meridian_session';
export const bearerChallenge = 'Bearer realm="meridian"';

/**
 * The console session id the request carries, if any. Parsed here, on demand, rather than by
 * `@fastify/cookie` on every request: its parsing and Set-Cookie hooks would run on every API call, most of
 * which carry a bearer token and no cookie. The plugin itself is registered only where cookies are set.
 */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header)[sessionCookie] : undefined;
}

const bearerPattern = /^Bearer +(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when the header has another shape. */
export function bearerTokenOf(header: string): string | undefined {
  return bearerPattern.exec(header)?.[1];
}

const tokenShaped = /^mrd_[0-9A-Za-z]+$/;

/** The subprotocols a WebSocket client offered (`Sec-WebSocket-Protocol`), in order. */
export function offeredProtocols(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** True for a subprotocol value shaped like an API token (never to be answered back). */
export const isTokenShaped = (protocol: string): boolean => tokenShaped.test(protocol);

/** A token offered as a subprotocol (browsers cannot set headers on a WebSocket). */
export const protocolTokenOf = (offered: readonly string[]): string | undefined =>
  offered.find(isTokenShaped);

export function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export const normalizeOrigin = (origin: string): string => origin.trim().replace(/\/+$/, '').toLowerCase();

/** REST: a console session changes state only from the console's own origin (the cookie is SameSite too). */
export function checkSessionCsrf(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const origin = request.headers.origin;
  if (origin && hostOf(origin) !== request.headers.host) {
    throw new AppError('csrf_rejected', `requests from origin ${origin} cannot use the console session`);
  }
}

/**
 * WebSocket handshakes: the origin allow-list (MERIDIAN_WS_ALLOWED_ORIGINS; empty or `*` allows any), and a
 * console session only from the console's own origin or an allowed one — a browser sends cookies on a
 * cross-site WebSocket handshake too.
 */
export function socketOriginPolicy(allowedOrigins: readonly string[]) {
  const allowed = allowedOrigins.map(normalizeOrigin);
  const isAllowed = (origin: string) => allowed.includes(normalizeOrigin(origin));
  return {
    checkOrigin(request: FastifyRequest): void {
      const origin = request.headers.origin;
      if (origin !== undefined && allowed.length && !allowed.includes('*') && !isAllowed(origin))
        throw new AppError('forbidden', `WebSocket connections from origin ${origin} are not allowed`);
    },
    checkSession(request: FastifyRequest): void {
      const origin = request.headers.origin;
      if (origin !== undefined && hostOf(origin) !== request.headers.host && !isAllowed(origin))
        throw new AppError(
          'csrf_rejected',
          `a console session cannot open a WebSocket from origin ${origin}`,
        );
    },
  };
}

export function requirePermission(principal: Principal, needed: Permission): void {
  if (!principal.permissions.has(needed))
    throw new AppError('forbidden', `this needs the ${needed} permission, which these credentials lack`);
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Which counter a failed authentication is charged to. Credentials that could be real (a well-formed token,
 * a session id the store does not know, a password) are charged to the client address; malformed tokens
 * (wrong shape or checksum, refused before any I/O) to their first characters. A valid credential is never
 * checked against either counter, so other people's bad tokens behind the same address (NAT) never lock
 * out a valid token.
 */
export const failureKeys = {
  address: (request: FastifyRequest) => `authfail:ip:${digest(request.ip)}`,
  malformed: (secret: string) => `authfail:malformed:${digest(secret.slice(0, 12))}`,
  /** Sign-in failures against one account (its email as typed, normalized), from any address. */
  account: (email: string) => `authfail:acct:${digest(email.trim().toLowerCase())}`,
  /** A token's failures: by address when it could be real, else by its first characters. */
  token: (request: FastifyRequest, token: string) =>
    isWellFormedToken(token) ? failureKeys.address(request) : failureKeys.malformed(token),
};

const failureWindowMs = 60_000;

/**
 * The one limiter of failed authentications (tokens, sessions, sign-ins): at most `limit` failures per
 * counter in 60 seconds, counted in the (shared) rate limiter so every replica blocks alike. A local map of
 * counters over their limit spares a blocked client the limiter round trip.
 */
export function createFailedAuthLimiter(deps: {
  limiter: RateLimiter;
  limit: number;
  /** Called when a failure is refused for its counter (metrics). */
  onBlocked?(): void;
}) {
  const { limiter, limit } = deps;
  const blocked = new Map<string, number>();

  const tooMany = (resetMs: number, message: string) =>
    new AppError('auth_rate_limited', message, {
      headers: { 'retry-after': String(Math.ceil(resetMs / 1000)) },
    });

  return {
    /**
     * Counts a failed credential check and throws: `error` (with the Bearer challenge) while the counter is
     * under its limit, 429 once it is over.
     */
    async fail(key: string, error: AppError): Promise<never> {
      const blockedUntil = blocked.get(key);
      if (blockedUntil !== undefined) {
        if (blockedUntil > Date.now()) {
          deps.onBlocked?.();
          throw tooMany(blockedUntil - Date.now(), tooManyMessage);
        }
        blocked.delete(key);
      }
      const decision = await limiter.consume(key, limit, failureWindowMs);
      if (!decision.allowed) {
        if (blocked.size > 100_000) blocked.clear(); // bounded: an attack from many addresses cannot grow it forever
        blocked.set(key, Date.now() + decision.resetMs);
        deps.onBlocked?.();
        throw tooMany(decision.resetMs, tooManyMessage);
      }
      throw new AppError(error.code, error.message, {
        headers: {
          'www-authenticate': `${bearerChallenge}, error="invalid_token", error_description="${error.message}"`,
        },
      });
    },
    /**
     * Charges an attempt to `key` before it is checked, and throws 429 (`message`, Retry-After) when the
     * counter is full. Charging first is what holds under concurrency: parallel attempts each take a place,
     * so no more than `limit` of them are ever checked in a window. A success gives its place back (`refund`).
     */
    async reserve(key: string, message: string): Promise<void> {
      const blockedUntil = blocked.get(key);
      if (blockedUntil !== undefined && blockedUntil > Date.now()) {
        deps.onBlocked?.();
        throw tooMany(blockedUntil - Date.now(), message);
      }
      const decision = await limiter.consume(key, limit, failureWindowMs);
      if (!decision.allowed) {
        deps.onBlocked?.();
        throw tooMany(decision.resetMs, message);
      }
    },
    /** Gives back a place `reserve` took, for an attempt that did not fail. */
    async refund(key: string): Promise<void> {
      await limiter.refund(key, failureWindowMs);
    },
  };
}

const tooManyMessage = 'too many failed authentication attempts from this address';

export type FailedAuthLimiter = ReturnType<typeof createFailedAuthLimiter>;
