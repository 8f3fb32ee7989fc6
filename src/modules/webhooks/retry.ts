/**
 * When to try again. `schedule[i]` is the delay after attempt i+1 failed; after the last entry the delivery
 * fails for good. Each delay gets ±`jitter` (fraction) so receivers that failed together are not retried in
 * lock step.
 */
export interface RetryPolicy {
  schedule: readonly number[];
  jitter: number;
}

/** Attempts a delivery gets in all: the first plus one per schedule entry. */
export const maxAttempts = (policy: RetryPolicy) => policy.schedule.length + 1;

/** Delay before the next attempt after `attemptsMade` failed ones; undefined when none is left. */
export function retryDelay(policy: RetryPolicy, attemptsMade: number, random: () => number = Math.random) {
  const base = policy.schedule[attemptsMade - 1];
  if (base === undefined) return undefined;
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
}
