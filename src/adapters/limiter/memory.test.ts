import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from './memory.ts';
import { manualClock } from '../../shared/clock.ts';

/**
 * Model test: random request timings against a reference that keeps every served timestamp. The limiter
 * must never serve more than `limit` in any window and must never refuse when the window has room.
 */
describe('sliding-window limiter against a reference model', () => {
  it('never over-serves and never falsely refuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 100, max: 5_000 }),
        fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 300 }),
        async (limit, windowMs, gaps) => {
          const clock = manualClock(0);
          const limiter = memoryRateLimiter(clock);
          const served: number[] = [];
          for (const gap of gaps) {
            clock.advance(gap);
            const now = clock.now();
            const inWindow = served.filter((t) => t > now - windowMs).length;
            const decision = await limiter.consume('acct', limit, windowMs);
            expect(decision.allowed).toBe(inWindow < limit);
            if (decision.allowed) {
              served.push(now);
              expect(decision.remaining).toBe(limit - inWindow - 1);
            } else {
              expect(decision.resetMs).toBeGreaterThan(0);
              expect(decision.resetMs).toBeLessThanOrEqual(windowMs);
            }
          }
          // Any window of length windowMs holds at most `limit` served requests.
          for (const start of served) {
            expect(served.filter((t) => t >= start && t < start + windowMs).length).toBeLessThanOrEqual(
              limit,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps accounts apart and forgets idle keys', async () => {
    const clock = manualClock(0);
    const limiter = memoryRateLimiter(clock);
    for (let i = 0; i < 3; i++) expect((await limiter.consume('a', 3, 1000)).allowed).toBe(true);
    expect((await limiter.consume('a', 3, 1000)).allowed).toBe(false);
    expect((await limiter.consume('b', 3, 1000)).allowed).toBe(true);
    clock.advance(5_000);
    await limiter.consume('c', 3, 1000);
    expect(limiter.size()).toBe(1);
  });
});
