import { describe, expect, it } from 'vitest';
import { seriesOf, sparklinePoints } from './derivatives.ts';

describe('derivatives sparklines', () => {
  it('scales a series into the box, extremes on the edges, time on x', () => {
    const points = [
      { time: 0, value: 10 },
      { time: 50, value: 30 },
      { time: 100, value: 20 },
    ];
    expect(sparklinePoints(points, 100, 20)).toBe('0,20 50,0 100,10');
  });

  it('draws a flat series through the middle and nothing for fewer than two points', () => {
    expect(
      sparklinePoints(
        [
          { time: 0, value: 5 },
          { time: 10, value: 5 },
        ],
        40,
        10,
      ),
    ).toBe('0,5 40,5');
    expect(sparklinePoints([{ time: 0, value: 5 }], 40, 10)).toBe('');
    expect(sparklinePoints([], 40, 10)).toBe('');
  });

  it('keeps only the points that carry the figure (absent is not 0)', () => {
    const data = [{ time: 1, openInterestUsd: 5 }, { time: 2 }, { time: 3, openInterestUsd: 7 }];
    expect(seriesOf(data, (p: { openInterestUsd?: number }) => p.openInterestUsd)).toEqual([
      { time: 1, value: 5 },
      { time: 3, value: 7 },
    ]);
    expect(seriesOf(undefined, () => 1)).toEqual([]);
  });
});
