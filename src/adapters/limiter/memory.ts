import type { Clock } from '../../shared/clock.ts';
import type { LimitDecision, RateLimiter } from '../../shared/rate-limiter.ts';

/**
 * In-process sliding log: each key keeps the timestamps of its served requests inside the window (at most
 * `limit` of them). Idle keys are swept so memory stays proportional to active accounts.
 */
export function memoryRateLimiter(clock: Clock): RateLimiter & { size(): number } {
  const logs = new Map<string, number[]>();
  let lastSweep = clock.now();

  const prune = (log: number[], now: number, windowMs: number) => {
    let drop = 0;
    while (drop < log.length && log[drop]! <= now - windowMs) drop++;
    if (drop) log.splice(0, drop);
  };

  const sweep = (now: number, windowMs: number) => {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, log] of logs) {
      if (!log.length || log[log.length - 1]! <= now - windowMs) logs.delete(key);
    }
  };

  return {
    degraded: false,
    async consume(key, limit, windowMs): Promise<LimitDecision> {
      const now = clock.now();
      sweep(now, windowMs);
      let log = logs.get(key);
      if (!log) {
        log = [];
        logs.set(key, log);
      }
      prune(log, now, windowMs);
      if (log.length < limit) {
        log.push(now);
        const remaining = limit - log.length;
        return { allowed: true, limit, remaining, resetMs: remaining > 0 ? 0 : log[0]! + windowMs - now };
      }
      return { allowed: false, limit, remaining: 0, resetMs: Math.max(1, log[0]! + windowMs - now) };
    },
    async count(key, windowMs) {
      const log = logs.get(key);
      if (!log) return 0;
      prune(log, clock.now(), windowMs);
      return log.length;
    },
    size: () => logs.size,
    async close() {
      logs.clear();
    },
  };
}
