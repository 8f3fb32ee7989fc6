import { accountRateWindowMs } from '../shared/rate-limiter.ts';

/** The account rate limit's window, and its headers (IETF draft-ietf-httpapi-ratelimit-headers). */
export const rateLimitWindowMs = accountRateWindowMs;

// The policy is kept per limit: the HTTP layer flattens and validates every header value it sends, and a kept
// string is flattened once.
const policyValues = new Map<number, string>();

export const policyValue = (limit: number): string => {
  let value = policyValues.get(limit);
  if (value === undefined) {
    value = `"account";q=${limit};w=60`;
    if (policyValues.size < 1000) policyValues.set(limit, value);
  }
  return value;
};

export const stateValue = (remaining: number, resetMs: number): string =>
  `"account";r=${remaining};t=${Math.ceil(resetMs / 1000)}`;

export function rateLimitHeaders(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return { 'ratelimit-policy': policyValue(limit), ratelimit: stateValue(remaining, resetMs) };
}
