import { describe, expect, it } from 'vitest';
import { type HistoryProgress, combineHistoryProgress } from './history-fill.ts';

const part = (p: Partial<HistoryProgress>): HistoryProgress => ({
  symbols: 2,
  windowsReady: 2,
  backfillDaysDone: 0,
  backfillDaysTotal: 0,
  failed: [],
  complete: true,
  ...p,
});

describe('history progress of the partitions a worker leads', () => {
  it('sums the counts and is complete only when every partition is', () => {
    const both = combineHistoryProgress([
      part({ symbols: 3, windowsReady: 3, backfillDaysDone: 10, backfillDaysTotal: 10 }),
      part({
        windowsReady: 1,
        backfillDaysDone: 0,
        backfillDaysTotal: 8,
        failed: ['XUSDT'],
        complete: false,
      }),
    ]);
    expect(both).toEqual({
      symbols: 5,
      windowsReady: 4,
      backfillDaysDone: 10,
      backfillDaysTotal: 18,
      failed: ['XUSDT'],
      complete: false,
    });
    expect(combineHistoryProgress([part({}), part({})])?.complete).toBe(true);
  });

  it('reports nothing for a worker that leads no partition (or none whose feed runs)', () => {
    expect(combineHistoryProgress([])).toBeUndefined();
    expect(combineHistoryProgress([undefined])).toBeUndefined();
  });
});
