// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Datapoint } from '../api/types.ts';
import { RecentForecasts } from './SymbolPage.tsx';

const point = (minute: number, backfilled: boolean): Datapoint =>
  ({
    symbol: 'BTCUSDT',
    horizon: '1h',
    prediction: 101,
    baseline: 100,
    expectedMovePct: 1,
    confidence: 0.55,
    factors: { orderflow: 1, funding: 0, macro: 0, ai_residual: 0 },
    generatedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
    outcome: {
      realized: 100.5,
      hit: true,
      scoredAt: new Date(Date.UTC(2026, 0, 1, 1, minute)).toISOString(),
    },
    backfilled,
  }) as Datapoint;

afterEach(cleanup);

describe('past forecasts vs realized', () => {
  it('marks the backfilled forecasts and says the track record counts live ones only', () => {
    const { container } = render(
      <RecentForecasts datapoints={[point(0, true), point(5, true), point(10, false)]} />,
    );
    const rows = [...container.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(3);
    // Newest first: the live one, then the two backfilled.
    expect(rows.map((r) => r.textContent?.includes('backfilled'))).toEqual([false, true, true]);
    expect(container.textContent).toContain('the track record counts live forecasts only');
  });

  it('says nothing about backfilling when every forecast shown is live', () => {
    const { container } = render(<RecentForecasts datapoints={[point(0, false)]} />);
    expect(container.textContent).not.toContain('backfilled');
    expect(container.textContent).not.toContain('Backfilled');
  });
});
