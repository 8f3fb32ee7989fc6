import { describe, expect, it } from 'vitest';
import type { NetflowPoint } from '../api/types.ts';
import { netflowView } from './netflow.ts';

const H = 3_600_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const point = (
  hour: number,
  inflowUsd: number,
  outflowUsd: number,
  gap = false,
  unpriced = 0,
): NetflowPoint => ({
  time: new Date(T0 + hour * H).toISOString(),
  timestamp: T0 + hour * H,
  inflow: null,
  outflow: null,
  netflow: null,
  inflowUsd,
  outflowUsd,
  netflowUsd: Math.round((inflowUsd - outflowUsd) * 100) / 100,
  flows: inflowUsd || outflowUsd ? 2 : 0,
  unpriced,
  gap,
});

describe('netflowView', () => {
  it('draws each bucket as a bar and their running sum, with the totals of the window', () => {
    const view = netflowView([
      point(0, 100, 30),
      point(1, 0, 0),
      point(2, 0.1, 50.25, false, 1),
      point(3, 5, 0, true),
    ]);
    expect(view.bars).toEqual([
      { time: T0 / 1000, value: 70, partial: false },
      { time: (T0 + H) / 1000, value: 0, partial: false },
      { time: (T0 + 2 * H) / 1000, value: -50.15, partial: false },
      { time: (T0 + 3 * H) / 1000, value: 5, partial: true },
    ]);
    expect(view.cumulative.map((p) => p.value)).toEqual([70, 70, 19.85, 24.85]);
    expect(view).toMatchObject({
      inflowUsd: 105.1,
      outflowUsd: 80.25,
      netflowUsd: 24.85,
      flows: 6,
      unpriced: 1,
      partial: 1,
    });
  });

  it('is empty, not zero-filled, when the server sent no bucket', () => {
    expect(netflowView([])).toMatchObject({ bars: [], cumulative: [], netflowUsd: 0, partial: 0 });
  });
});
