import { describe, expect, it } from 'vitest';
import { GRID_INDEX } from '../calibration/conformal.ts';
import { BarSeries } from '../features/series.ts';
import { normQuantile } from '../math.ts';
import { type HorizonForecast, SymbolForecaster } from './engine.ts';
import { type Bar, HORIZON_MS } from '../types.ts';
import { mulberry32 } from '../../../shared/random.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** 1-minute bars whose volatility switches between calm and stormy every 9 hours. */
function bars(days: number, seed: number): Bar[] {
  const rand = mulberry32(seed);
  const out: Bar[] = [];
  let p = 100;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < days * 1440; i++) {
    const vol = Math.floor(i / 540) % 2 === 0 ? 0.0006 : 0.0018;
    const open = p;
    p *= Math.exp(vol * normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12)));
    out.push({
      openTime: start + i * MIN,
      open,
      high: Math.max(open, p),
      low: Math.min(open, p),
      close: p,
      volume: 1,
    });
  }
  return out;
}

/** The engine walk-forward over 1-minute bars, forecasting every `stepMs`; 6h horizon only. */
function run(series: BarSeries, stepMs: number) {
  const engine = new SymbolForecaster('X', ['6h'], { stepMs });
  const model = engine.models['6h'];
  const pending: HorizonForecast[] = [];
  let next = 0;
  let covered = 0;
  let scored = 0;
  let variation = 0;
  let last = Number.NaN;
  let first = Number.NaN;
  let end = Number.NaN;
  for (let i = 0; i < series.length; i++) {
    const t = series.closeTime[i]!;
    while (pending.length && pending[0]!.t + HORIZON_MS['6h'] <= t) {
      const f = pending.shift()!;
      const j = series.indexAt(f.t + HORIZON_MS['6h']);
      const y = Math.log(series.close[j]! / f.baseline);
      if (model.views.ensemble!.conformal.warm && f.t >= series.closeTime[0]! + 2 * 24 * HOUR) {
        const q = f.views.ensemble!.quantiles;
        covered += q[GRID_INDEX(0.1)]! <= y && y <= q[GRID_INDEX(0.9)]! ? 1 : 0;
        scored++;
      }
      engine.learn(f, series.close[j]!);
    }
    if (t < next) continue;
    next = t + stepMs;
    const fs = engine.forecast({ series, basket: [series] }, t);
    if (fs) pending.push(...fs);
    if (model.views.ensemble!.conformal.warm) {
      const level = model.views.ensemble!.conformal.levels[GRID_INDEX(0.1)]!;
      if (Number.isNaN(first)) first = t;
      else variation += Math.abs(level - last);
      last = level;
      end = t;
    }
  }
  return { coverage: covered / scored, scored, adaptationPerHour: variation / ((end - first) / HOUR) };
}

describe('rates in time, not steps', () => {
  it('a 1-minute and a 5-minute cadence give the same 6h interval coverage and ACI adaptation per hour', () => {
    const series = BarSeries.from('X', MIN, bars(7, 4));
    const fast = run(series, MIN);
    const slow = run(series, 5 * MIN);
    expect(fast.scored).toBeGreaterThan(4 * slow.scored);
    // ACI moves its level by γ per forecast with γ ∝ step: per hour of time the two cadences adapt alike
    // (a per-step rate, as 1.2.0's floor was, makes the 1-minute cadence adapt five times faster).
    expect(fast.adaptationPerHour / slow.adaptationPerHour).toBeGreaterThan(0.7);
    expect(fast.adaptationPerHour / slow.adaptationPerHour).toBeLessThan(1.4);
    // Five days of 6h outcomes hold ~20 independent ones: coverage agrees within that noise.
    expect(Math.abs(fast.coverage - slow.coverage)).toBeLessThan(0.08);
  }, 60_000);
});
