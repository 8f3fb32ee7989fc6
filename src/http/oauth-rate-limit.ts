import type { FastifyRequest } from 'fastify';
import type { RateLimiter } from '../shared/rate-limiter.ts';

const windowMs = 60_000;
/** A client id longer than this is no client's (ids are short); the key keeps no more of it. */
const MAX_CLIENT_KEY = 64;

export interface OAuthRateLimits {
  /** Token and revocation requests per minute per OAuth client. */
  perClient: number;
  /** The same per client address, for requests that do not authenticate a confidential client. */
  perAddress: number;
}

/** Which limit refused a request, and when it may be retried. */
export interface OAuthLimitRefusal {
  limit: 'client' | 'address';
  retryAfterSeconds: number;
}

/**
 * The rate limits of /oauth/token and /oauth/revoke, in the shared limiter (every replica counts alike). Each
 * request is charged to its client address, and to its client when it names one. A confidential client that
 * authenticated gets its address place back (`refundAddress`): a server-side app may speak for many people
 * from one address, and only its own client limit holds it. Charging first keeps parallel requests honest.
 */
export function createOAuthRateLimit(deps: { limiter: RateLimiter; limits: OAuthRateLimits }) {
  const { limiter, limits } = deps;
  const addressKey = (request: FastifyRequest) => `oauth:addr:${request.ip}`;
  const refusal = (limit: OAuthLimitRefusal['limit'], resetMs: number): OAuthLimitRefusal => ({
    limit,
    retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  });
  return {
    /** Charges the request; the refusal when one of its limits is full (nothing is served then). */
    async charge(
      request: FastifyRequest,
      clientId: string | undefined,
    ): Promise<OAuthLimitRefusal | undefined> {
      const address = await limiter.consume(addressKey(request), limits.perAddress, windowMs);
      if (!address.allowed) return refusal('address', address.resetMs);
      if (clientId === undefined) return undefined;
      const key = `oauth:client:${clientId.slice(0, MAX_CLIENT_KEY)}`;
      const client = await limiter.consume(key, limits.perClient, windowMs);
      return client.allowed ? undefined : refusal('client', client.resetMs);
    },
    /** Gives back the address place of a request whose confidential client authenticated. */
    refundAddress: (request: FastifyRequest): Promise<void> => limiter.refund(addressKey(request), windowMs),
  };
}

export type OAuthRateLimit = ReturnType<typeof createOAuthRateLimit>;
