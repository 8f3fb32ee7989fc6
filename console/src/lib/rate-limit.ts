/** What one response's rate-limit headers say about the account's quota. */
export interface RateLimitReading {
  /** Requests allowed per window. */
  limit: number;
  /** Requests still available now. */
  remaining: number;
  /** Requests used in the current sliding window. */
  used: number;
  windowSeconds: number;
  /** Seconds until one more request is available. */
  resetSeconds: number;
}

const param = (header: string, name: string) => {
  const match = new RegExp(`;\\s*${name}=(\\d+)`).exec(header);
  return match ? Number(match[1]) : undefined;
};

/**
 * Reads `RateLimit: "account";r=118;t=1` and `RateLimit-Policy: "account";q=120;w=60`
 * (draft-ietf-httpapi-ratelimit-headers, as the API sends them). Undefined when either is missing.
 */
export function parseRateLimit(
  rateLimit: string | null | undefined,
  policy: string | null | undefined,
): RateLimitReading | undefined {
  if (!rateLimit || !policy) return undefined;
  const remaining = param(rateLimit, 'r');
  const resetSeconds = param(rateLimit, 't') ?? 0;
  const limit = param(policy, 'q');
  const windowSeconds = param(policy, 'w') ?? 60;
  if (remaining === undefined || limit === undefined) return undefined;
  return { limit, remaining, used: Math.max(0, limit - remaining), windowSeconds, resetSeconds };
}
