import { describe, expect, it } from 'vitest';
import { ConformalQuantiles, GRID } from '../calibration/conformal.ts';
import { DirectionCalibrator } from '../calibration/direction.ts';
import { calibrationSpacingMs } from '../calibration/grid.ts';
import { SigmaBins } from '../calibration/sigma-bins.ts';
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
    // Outcomes on the calibration grid: a forecast in 5 (15m) or 15 (1h, 6h) enters the windows.
    const slots = new Set<string>();
    for (let i = 0; i < s.length; i++) {
      const t = s.closeTime[i]!;
      while (pending.length && pending[0]!.t + HORIZON_MS[pending[0]!.horizon] <= t) {
        const f = pending.shift()!;
        model.learn(f, s.close[s.indexAt(f.t + HORIZON_MS[f.horizon])]!);
        scored++;
        slots.add(`${f.horizon} ${Math.floor(f.t / calibrationSpacingMs(MIN, HORIZON_MS[f.horizon]))}`);
      }
      const fs = model.forecast({ series: s, basket: [s] }, t);
      if (!fs) continue;
      pending.push(...fs);
      pending.sort((a, b) => a.t + HORIZON_MS[a.horizon] - (b.t + HORIZON_MS[b.horizon]));
    }
    expect(scored).toBeGreaterThan(6000);
    expect(slots.size).toBeGreaterThan(scored / 10);
    expect(slots.size).toBeLessThan(scored / 6);
    // Per outcome on the grid: two views × (pooled layer, one σ-tercile layer, 8 bytes each with its sorted
    // copy; a direction calibrator of 5 bytes) plus the σ bins' 4: 46 bytes, twice that at most while doubling.
    expect(model.heldBytes).toBeLessThan(64 * 1024 + 2 * 46 * slots.size);
    expect(model.heldBytes).toBeLessThan(0.5 * 1024 * 1024);
  }, 60_000);
});

describe('hard memory bound of the calibration windows', () => {
  it('a symbol at a forecast a minute: at most 0.45 MiB whatever the uptime, every horizon', () => {
    const model = new SymbolForecaster('X', HORIZONS, { stepMs: MIN });
    // Per horizon, in outcomes on the calibration grid (15m: one in 5 minutes, 1h and 6h: one in 15): σ bins
    // (30 days × 4 B) and two views (ensemble, reference), each a pooled conformal layer and three σ-tercile
    // layers (10 days each, 8 B a residual with the sorted copy) and a direction window (21 days × 5 B).
    // Every outcome at 1 minute in double precision (1.7.0): 2.61 MiB a horizon, 7.82 MiB a symbol.
    const perHorizon = (perDay: number) => 30 * perDay * 4 + 2 * (4 * 10 * perDay * 8 + 21 * perDay * 5);
    expect(perHorizon(1440 / 5)).toBe(279_360);
    expect(perHorizon(1440 / 15)).toBe(93_120);
    expect(model.models['15m'].maxWindowBytes).toBe(perHorizon(1440 / 5));
    expect(model.models['1h'].maxWindowBytes).toBe(perHorizon(1440 / 15));
    expect(model.models['6h'].maxWindowBytes).toBe(perHorizon(1440 / 15));
    expect(model.maxWindowBytes).toBe(465_600);
    expect(model.maxWindowBytes / 2 ** 20).toBeLessThan(0.45);
  });

  it('each window structure, filled past its capacity, holds exactly its bound', () => {
    const conformal = new ConformalQuantiles(1000, 0.005, 50, 25);
    const bins = new SigmaBins(1000, 100, 50);
    const direction = new DirectionCalibrator(1000, 100, 50, 20);
    const rand = mulberry32(5);
    const q = new Float64Array(GRID.length);
    for (let i = 0; i < 2500; i++) {
      const sigma = 0.01 * (0.5 + rand());
      const y = sigma * normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12));
      conformal.update(y, 0, sigma, conformal.quantiles(0, sigma, q));
      bins.add(sigma);
      direction.add(rand() - 0.5, y);
      expect(conformal.heldBytes).toBeLessThanOrEqual(conformal.maxWindowBytes);
      expect(bins.heldBytes).toBeLessThanOrEqual(bins.maxWindowBytes);
      expect(direction.windowBytes).toBeLessThanOrEqual(direction.maxWindowBytes);
    }
    expect(conformal.heldBytes).toBe(1000 * 8);
    expect(bins.heldBytes).toBe(1000 * 4);
    expect(direction.windowBytes).toBe(1000 * 5);
  });
});
