import { describe, expect, it, vi } from 'vitest';
import { exponentialBackoff } from './backoff.ts';
import { createSleeper } from './sleeper.ts';

describe('exponentialBackoff', () => {
  it('doubles each delay up to the cap and starts over after reset', () => {
    const backoff = exponentialBackoff({ initialMs: 100, maxMs: 500, jitter: 0 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([
      100, 200, 400, 500, 500,
    ]);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it('spreads each delay by the jitter fraction either way', () => {
    const low = exponentialBackoff({ initialMs: 1_000, maxMs: 10_000 }, () => 0);
    const high = exponentialBackoff({ initialMs: 1_000, maxMs: 10_000 }, () => 1);
    expect(low.next()).toBe(750);
    expect(high.next()).toBe(1_250);
  });
});

describe('createSleeper', () => {
  it('wakeAll ends every sleep under way at once', async () => {
    vi.useFakeTimers();
    try {
      const sleeper = createSleeper();
      let woken = 0;
      const sleeps = [sleeper.sleep(60_000), sleeper.sleep(120_000)].map((p) => p.then(() => woken++));
      await vi.advanceTimersByTimeAsync(10);
      expect(woken).toBe(0);
      sleeper.wakeAll();
      await Promise.all(sleeps);
      expect(woken).toBe(2);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
