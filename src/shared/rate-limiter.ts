/**
 * Rate limiter port: a sliding log. `consume` serves a request only when fewer than `limit` requests were
 * served in the trailing `windowMs`, so no window of that length ever holds more than `limit` — the contract's
 * "120 requests per minute" read strictly — and a request is refused only when that is really so.
 */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed right now. */
  remaining: number;
  /** Milliseconds until one more request becomes available (0 when some remain). */
  resetMs: number;
}

/** The window of every account's request limit ("120 requests per minute"). */
export const accountRateWindowMs = 60_000;

export interface WindowUse {
  used: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when none is counted). */
  oldestLeavesInMs: number;
}

export interface RateLimiter {
  /**
   * Records one request when the window has room. An in-process limiter answers synchronously (no promise
   * turn on the request path); a shared store answers with a promise.
   */
  consume(key: string, limit: number, windowMs: number): LimitDecision | Promise<LimitDecision>;
  /** The trailing window without recording a request: requests counted, and when the oldest leaves it. */
  peek(key: string, windowMs: number): Promise<WindowUse>;
  /**
   * Takes back the newest request recorded for `key` (a reservation that turned out not to count, such as a
   * sign-in attempt charged before its password was checked, which then succeeded).
   */
  refund(key: string, windowMs: number): Promise<void>;
  /** True while a shared store is unreachable and the limiter runs on its local fallback. */
  readonly degraded: boolean;
  close(): Promise<void>;
}
