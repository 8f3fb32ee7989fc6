import { describe, expect, it } from 'vitest';
import { failureStreak } from './failure-streak.ts';

describe('failureStreak', () => {
  it('reports the first failure of a streak and the recovery, nothing for repeats or plain successes', () => {
    const lines: string[] = [];
    const streak = failureStreak({
      failed: (e) => lines.push(`failed: ${String(e)}`),
      recovered: () => lines.push('recovered'),
    });
    streak.succeeded();
    streak.failed('a');
    streak.failed('b');
    streak.failed('c');
    streak.succeeded();
    streak.succeeded();
    streak.failed('d');
    expect(lines).toEqual(['failed: a', 'recovered', 'failed: d']);
  });
});
