/**
 * Exponential backoff for loops that run until stopped (a feed's reconnects, an indexer's steps): each failure
 * waits longer, up to a cap, and a success starts over. A small module rather than p-retry or
 * exponential-backoff: those retry one operation until it succeeds, while these loops never end on success.
 */
export interface BackoffPolicy {
  /** The first delay (ms), and the one after `reset()`. */
  initialMs: number;
  /** No delay grows past this (before jitter). */
  maxMs: number;
  /** Each delay is spread randomly by ± this fraction (default 0.25), so many loops do not retry in step. */
  jitter?: number;
}

export interface Backoff {
  /** The delay to wait before the next attempt; the one after it is twice as long, up to the cap. */
  next(): number;
  /** After a success: the next delay is the first one again. */
  reset(): void;
}

export function exponentialBackoff(policy: BackoffPolicy, random: () => number = Math.random): Backoff {
  const jitter = policy.jitter ?? 0.25;
  let base = Math.min(policy.initialMs, policy.maxMs);
  return {
    next() {
      const delay = base * (1 - jitter + 2 * jitter * random());
      base = Math.min(policy.maxMs, base * 2);
      return delay;
    },
    reset() {
      base = Math.min(policy.initialMs, policy.maxMs);
    },
  };
}
