import type { Clock } from '../../shared/clock.ts';
import type { LimitDecision, RateLimiter } from '../../shared/rate-limiter.ts';

/**
 * The served requests of one key inside the window, oldest first, as runs of equal timestamps in a queue.
 * Pruning advances a head index (compacting now and then), so a request costs O(1) amortized however large
 * the limit: an account with a 1,000,000/min override at 10k req/s would otherwise shift a 600k-entry array on
 * every request. Runs keep memory proportional to distinct milliseconds, not to requests.
 */
class ServedLog {
  private times: number[] = [];
  private counts: number[] = [];
  private head = 0;
  total = 0;

  prune(cutoff: number): void {
    const { times, counts } = this;
    let head = this.head;
    while (head < times.length && times[head]! <= cutoff) this.total -= counts[head++]!;
    if (head === times.length) {
      this.times = [];
      this.counts = [];
      this.head = 0;
    } else if (head > 1024 && head * 2 > times.length) {
      this.times = times.slice(head);
      this.counts = counts.slice(head);
      this.head = 0;
    } else {
      this.head = head;
    }
  }

  record(now: number): void {
    const last = this.times.length - 1;
    if (last >= this.head && this.times[last] === now) this.counts[last]!++;
    else {
      this.times.push(now);
      this.counts.push(1);
    }
    this.total++;
  }

  /** Forgets the newest served request (its run shrinks; an emptied run is dropped). */
  removeNewest(): void {
    const last = this.times.length - 1;
    if (last < this.head) return;
    this.total--;
    if (--this.counts[last]! === 0) {
      this.times.pop();
      this.counts.pop();
    }
  }

  /** Timestamp of the oldest served request still in the window (undefined when empty). */
  oldest(): number | undefined {
    return this.times[this.head];
  }

  newest(): number | undefined {
    return this.times[this.times.length - 1];
  }
}

/**
 * In-process sliding log: each key keeps its served requests inside the window (at most `limit` of them).
 * Idle keys are swept so memory stays proportional to active accounts.
 */
export function memoryRateLimiter(clock: Clock): RateLimiter & { size(): number } {
  const logs = new Map<string, ServedLog>();
  let lastSweep = clock.now();

  const sweep = (now: number, windowMs: number) => {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, log] of logs) {
      const newest = log.newest();
      if (newest === undefined || newest <= now - windowMs) logs.delete(key);
    }
  };

  return {
    degraded: false,
    consume(key, limit, windowMs): LimitDecision {
      const now = clock.now();
      sweep(now, windowMs);
      let log = logs.get(key);
      if (!log) {
        log = new ServedLog();
        logs.set(key, log);
      }
      log.prune(now - windowMs);
      if (log.total < limit) {
        log.record(now);
        const remaining = limit - log.total;
        return {
          allowed: true,
          limit,
          remaining,
          resetMs: remaining > 0 ? 0 : log.oldest()! + windowMs - now,
        };
      }
      return { allowed: false, limit, remaining: 0, resetMs: Math.max(1, log.oldest()! + windowMs - now) };
    },
    async peek(key, windowMs) {
      const log = logs.get(key);
      if (!log) return { used: 0, oldestLeavesInMs: 0 };
      const now = clock.now();
      log.prune(now - windowMs);
      const oldest = log.oldest();
      return { used: log.total, oldestLeavesInMs: oldest === undefined ? 0 : oldest + windowMs - now };
    },
    async refund(key, windowMs) {
      const log = logs.get(key);
      if (!log) return;
      log.prune(clock.now() - windowMs);
      log.removeNewest();
    },
    size: () => logs.size,
    async close() {
      logs.clear();
    },
  };
}
