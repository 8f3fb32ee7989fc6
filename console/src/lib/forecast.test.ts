import { describe, expect, it } from 'vitest';
import type { Datapoint } from '../api/types.ts';
import { fanOf, forecastPath, mergeDatapoints, trackOnGrid } from './forecast.ts';

const point = (generatedAt: string, prediction: number, extra: Partial<Datapoint> = {}): Datapoint => ({
  symbol: 'BTCUSDT',
  horizon: '1h',
  prediction,
  baseline: 100,
  expectedMovePct: prediction - 100,
  confidence: 0.6,
  factors: { orderflow: 0.5, funding: 0.2, macro: 0.1, ai_residual: 0.2 },
  generatedAt,
  ...extra,
});

describe('forecast path', () => {
  it('places each datapoint at the time it forecasts, oldest first, with its bands and outcome', () => {
    const path = forecastPath([
      point('2026-01-01T10:15:00Z', 101, {
        outcome: { hit: true, realized: 100.8, scoredAt: '2026-01-01T11:15:00Z' },
      }),
      point('2026-01-01T10:00:00Z', 102, {
        quantiles: { p05: 95, p10: 97, p90: 104, p95: 106 } as Datapoint['quantiles'],
      }),
    ]);
    expect(path.map((p) => p.time)).toEqual([
      Date.parse('2026-01-01T11:00:00Z') / 1000,
      Date.parse('2026-01-01T11:15:00Z') / 1000,
    ]);
    expect(path[0]).toMatchObject({ median: 102, p05: 95, p10: 97, p90: 104, p95: 106 });
    expect(path[1]).toMatchObject({ median: 101, realized: 100.8, hit: true });
  });

  it('merges live datapoints without duplicating ones the REST answer already has', () => {
    const fetched = [point('2026-01-01T10:00:00Z', 101), point('2026-01-01T10:15:00Z', 102)];
    const live = [point('2026-01-01T10:15:00Z', 999), point('2026-01-01T10:30:00Z', 103)];
    const merged = mergeDatapoints(fetched, live);
    expect(merged.map((p) => p.prediction)).toEqual([101, 102, 103]);
  });
});

describe('drawing on the candle grid', () => {
  const path = forecastPath([
    point('2026-01-01T10:01:10Z', 101),
    point('2026-01-01T10:07:40Z', 102),
    point('2026-01-01T10:16:00Z', 103, {
      quantiles: { p05: 95, p10: 97, p90: 104, p95: 106 } as Datapoint['quantiles'],
    }),
  ]);
  const s = (iso: string) => Date.parse(iso) / 1000;

  it('keeps one median per candle slot, the newest forecast winning', () => {
    expect(trackOnGrid(path, 900)).toEqual([
      { time: s('2026-01-01T11:00:00Z'), value: 102 },
      { time: s('2026-01-01T11:15:00Z'), value: 103 },
    ]);
  });

  it('fans the newest forecast out from the last candle to its horizon', () => {
    const fan = fanOf(path.at(-1), 900, s('2026-01-01T10:15:00Z'))!;
    expect(fan.median).toEqual([
      { time: s('2026-01-01T10:15:00Z'), value: 100 },
      { time: s('2026-01-01T11:15:00Z'), value: 103 },
    ]);
    expect(fan.p05.at(-1)?.value).toBe(95);
    expect(fan.p95.at(-1)?.value).toBe(106);
    expect(fanOf(path[0], 900)!.p10).toEqual([]);
    expect(fanOf(undefined, 900)).toBeUndefined();
  });
});
