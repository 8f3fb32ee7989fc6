import { describe, expect, it } from 'vitest';
import { BarSeries } from '../features/series.ts';
import { normQuantile } from '../math.ts';
import { type HorizonForecast, SymbolForecaster } from './engine.ts';
import { HORIZONS, HORIZON_MS } from '../../identifiers/index.ts';
import { mulberry32 } from '../../../shared/random.ts';

const MIN = 60_000;

function series(days: number): BarSeries {
  const rand = mulberry32(3);
  const s = new BarSeries('X', MIN);
  let p = 100;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < days * 1440; i++) {
    const open = p;
    p *= Math.exp(0.001 * normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12)));
    s.append({
      openTime: start + i * MIN,
      open,
      high: Math.max(open, p),
      low: Math.min(open, p),
      close: p,
      volume: 1,
    });
  }
  return s;
}

describe("memory of one symbol's model (every horizon, a forecast a minute)", () => {
  it('holds calibration windows in proportion to the outcomes scored, not their 10–30 day capacity', () => {
    const model = new SymbolForecaster('X', HORIZONS, { stepMs: MIN });
    // Allocated whole, the windows took ≈ 7 MB before the first outcome.
    expect(model.heldBytes).toBeLessThan(64 * 1024);
    const s = series(2);
    const pending: HorizonForecast[] = [];
    let scored = 0;
    for (let i = 0; i < s.length; i++) {
      const t = s.closeTime[i]!;
      while (pending.length && pending[0]!.t + HORIZON_MS[pending[0]!.horizon] <= t) {
        const f = pending.shift()!;
        model.learn(f, s.close[s.indexAt(f.t + HORIZON_MS[f.horizon])]!);
        scored++;
      }
      const fs = model.forecast({ series: s, basket: [s] }, t);
      if (!fs) continue;
      pending.push(...fs);
      pending.sort((a, b) => a.t + HORIZON_MS[a.horizon] - (b.t + HORIZON_MS[b.horizon]));
    }
    expect(scored).toBeGreaterThan(6000);
    // Per scored outcome: two views × (pooled layer, one σ-tercile layer, each with its sorted copy; two
    // direction calibrators of 9 bytes) plus the σ bins: ≈ 110 bytes, twice that at most while doubling.
    expect(model.heldBytes).toBeLessThan(64 * 1024 + 2 * 110 * scored);
    expect(model.heldBytes).toBeLessThan(1.5 * 1024 * 1024);
  }, 60_000);
});
