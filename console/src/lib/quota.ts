import type { MeridianProblemError } from '@meridian/client';

/** What a 429 said about the shared quota: its size and when requests are allowed again. */
export interface QuotaExceeded {
  limit: number | undefined;
  windowSeconds: number | undefined;
  /** Seconds to wait, from `Retry-After`, else the `RateLimit` reset. */
  waitSeconds: number;
  /** When requests are allowed again (ms since the epoch). */
  until: number;
}

export function quotaExceeded(error: MeridianProblemError, now = Date.now()): QuotaExceeded {
  const waitSeconds = error.retryAfterSeconds ?? error.rateLimit?.resetSeconds ?? 1;
  return {
    limit: error.rateLimit?.limit,
    windowSeconds: error.rateLimit?.windowSeconds,
    waitSeconds,
    until: now + waitSeconds * 1000,
  };
}

/** "120 requests per 60 s for the whole account are used up. Requests are allowed again in 12 s." */
export function quotaMessage(quota: QuotaExceeded, now = Date.now()): string {
  const left = Math.max(0, Math.ceil((quota.until - now) / 1000));
  const limit =
    quota.limit === undefined
      ? 'The request limit of this account is used up'
      : `The account's limit of ${quota.limit.toLocaleString('en-US')} requests per ${quota.windowSeconds ?? 60} s (all keys and the console together) is used up`;
  return `${limit}. ${left > 0 ? `Requests are allowed again in ${left} s.` : 'Requests are allowed again now.'}`;
}
