import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConformalQuantiles, GRID } from './calibration/conformal.ts';
import { IsotonicCalibrator, pava } from './calibration/isotonic.ts';
import { factorShares, toRow } from './forecast-row.ts';
import { presentDatapoint } from './present.ts';
import { BarSeries } from './features/series.ts';
import { mulberry32 } from '../../shared/random.ts';
import { type HorizonForecast, SymbolForecaster, ZERO_EXPERT } from './models/engine.ts';
import { OnlineRidge } from './models/ridge.ts';
import { FixedShareWeights } from './models/weights.ts';
import { normCdf, normQuantile } from './math.ts';
import { crpsFromGrid, crpsGaussian, dieboldMariano, gaussianGrid } from './scoring/metrics.ts';
import { HORIZON_MS } from '../identifiers/index.ts';
import { type Bar, FACTORS } from './types.ts';

const BAR = 5 * 60_000;

/** A synthetic random walk with fat tails, 5-minute bars. */
function syntheticBars(n: number, seed = 7, start = Date.UTC(2024, 0, 1)): Bar[] {
  const rand = mulberry32(seed);
  const bars: Bar[] = [];
  let price = 100;
  for (let i = 0; i < n; i++) {
    const u = rand();
    const r = normQuantile(Math.min(Math.max(u, 1e-9), 1 - 1e-9)) * 0.002 * (rand() < 0.05 ? 3 : 1);
    const open = price;
    price = price * Math.exp(r);
    bars.push({
      openTime: start + i * BAR,
      open,
      high: Math.max(open, price) * (1 + 0.0005 * rand()),
      low: Math.min(open, price) * (1 - 0.0005 * rand()),
      close: price,
      volume: 10 + 10 * rand(),
    });
  }
  return bars;
}

/** Runs the production walk-forward loop up to bar `last`, returning every forecast made. */
function walk(bars: Bar[], last: number, atOffsetMs = 0): HorizonForecast[] {
  const s = BarSeries.from('TEST', BAR, bars);
  const engine = new SymbolForecaster('TEST', ['15m', '1h', '6h'], { stepMs: BAR, trackMembers: true });
  const pending: HorizonForecast[] = [];
  const out: HorizonForecast[] = [];
  for (let i = 0; i <= last; i++) {
    const t = s.closeTime[i]! + (i === last ? atOffsetMs : 0);
    for (let k = pending.length - 1; k >= 0; k--) {
      const f = pending[k]!;
      const target = f.t + HORIZON_MS[f.horizon];
      if (target > t) continue;
      pending.splice(k, 1);
      const j = s.indexAt(target);
      if (s.closeTime[j] === target) engine.learn(f, s.close[j]!);
    }
    const fs = engine.forecast({ series: s, basket: [s] }, t);
    if (fs) {
      pending.push(...fs);
      out.push(...fs);
    }
  }
  return out;
}

const fingerprint = (fs: HorizonForecast[]) =>
  fs.map((f) => ({
    t: f.t,
    h: f.horizon,
    sigma: f.sigma,
    views: Object.fromEntries(
      Object.entries(f.views).map(([k, v]) => [k, [v.median, v.confidence, Array.from(v.quantiles)]]),
    ),
    contributions: f.contributions,
  }));

describe('no look-ahead', () => {
  it('poisoning every bar after generatedAt (the bar in progress included) leaves all forecasts unchanged', () => {
    const bars = syntheticBars(1800);
    const k = 1500;
    const poisoned = bars.map((b, i) =>
      i > k
        ? { ...b, open: b.open * 7, high: b.high * 9, low: b.low * 0.1, close: b.close * 5, volume: 1e9 }
        : b,
    );
    const a = walk(bars, k);
    const b = walk(poisoned, k);
    expect(a.length).toBeGreaterThan(1000);
    expect(fingerprint(b)).toEqual(fingerprint(a));
    // Mid-bar: at closeTime[k] + 2 min bar k+1 is still open and must not be read either.
    expect(fingerprint(walk(poisoned, k, 120_000)).at(-1)).toEqual(
      fingerprint(walk(bars, k, 120_000)).at(-1),
    );
  }, 240_000);

  it('a forecast made before a bar closes does not see that bar', () => {
    const bars = syntheticBars(600);
    const s = BarSeries.from('X', BAR, bars);
    const t = s.closeTime[500]! - 1;
    expect(s.indexAt(t)).toBe(499);
  });
});

describe('datapoint invariants', () => {
  it('factor shares: Σ|f| = 1 with signs kept, all zero when flat', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
        (xs) => {
          const c = { orderflow: xs[0]!, funding: xs[1]!, macro: xs[2]!, ai_residual: xs[3]! };
          const f = factorShares(c);
          const total = FACTORS.reduce((s, k) => s + Math.abs(f[k]), 0);
          if (FACTORS.every((k) => c[k] === 0)) expect(total).toBe(0);
          else {
            expect(Math.abs(total - 1)).toBeLessThan(1e-9);
            for (const k of FACTORS) if (Math.abs(c[k]) > 1e-3) expect(Math.sign(f[k])).toBe(Math.sign(c[k]));
          }
        },
      ),
    );
    expect(factorShares({ orderflow: 0, funding: 0, macro: 0, ai_residual: 0 })).toEqual({
      orderflow: 0,
      funding: 0,
      macro: 0,
      ai_residual: 0,
    });
  });

  it('every datapoint of a walk-forward run satisfies the contract', () => {
    const bars = syntheticBars(1500, 3);
    const s = BarSeries.from('TEST', BAR, bars);
    const fs = walk(bars, 1400);
    for (const f of fs.slice(-300)) {
      const d = presentDatapoint(toRow('BTCUSDT', f, s));
      expect(Object.keys(d)).toEqual([
        'symbol',
        'horizon',
        'prediction',
        'baseline',
        'expectedMovePct',
        'confidence',
        'factors',
        'generatedAt',
      ]);
      expect(d.confidence).toBeGreaterThanOrEqual(0.5);
      expect(d.confidence).toBeLessThanOrEqual(1);
      // The published side is the one the direction calibrator rates likelier (flat only when neither side
      // is rated above 0.5, and a flat forecast counts as "up").
      const call = f.views.ensemble!.call;
      if (call.floored) expect(d.prediction).toBe(d.baseline);
      else {
        expect(d.prediction >= d.baseline ? 1 : -1).toBe(call.side);
        expect(call.side === 1 ? call.up : call.down).toBeGreaterThanOrEqual(0.5);
      }
      expect(d.expectedMovePct).toBeCloseTo((100 * (d.prediction - d.baseline)) / d.baseline, 6);
      const total = FACTORS.reduce((a, k) => a + Math.abs(d.factors[k]), 0);
      expect(d.prediction === d.baseline ? total === 0 : Math.abs(total - 1) < 1e-9).toBe(true);
      expect(d.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['15m', '1h', '6h']).toContain(d.horizon);
    }
  });

  it('at 15m the mean combines only the members whose evidence passes: one shrunk to 0 does not dilute it', () => {
    // Mean-reverting 5-minute returns: a signal the orderflow member (recent returns) can earn a pass on.
    const rand = mulberry32(17);
    const bars: Bar[] = [];
    let price = 100;
    let last = 0;
    for (let i = 0; i < 6000; i++) {
      const r = -0.35 * last + 0.002 * normQuantile(Math.min(Math.max(rand(), 1e-9), 1 - 1e-9));
      const open = price;
      price *= Math.exp(r);
      last = r;
      bars.push({
        openTime: Date.UTC(2024, 0, 1) + i * BAR,
        open,
        high: Math.max(open, price) * 1.0003,
        low: Math.min(open, price) * 0.9997,
        close: price,
        volume: 10,
      });
    }
    const s = BarSeries.from('TEST', BAR, bars);
    const engine = new SymbolForecaster('TEST', ['15m'], { stepMs: BAR });
    const model = engine.models['15m'];
    const pending: HorizonForecast[] = [];
    let checked = 0;
    let diluted = 0;
    for (let i = 0; i < s.length; i++) {
      const t = s.closeTime[i]!;
      while (pending.length && pending[0]!.t + HORIZON_MS['15m'] <= t) {
        const f = pending.shift()!;
        engine.learn(f, s.close[s.indexAt(f.t + HORIZON_MS['15m'])]!);
      }
      const f = engine.forecast({ series: s, basket: [s] }, t)?.[0];
      if (!f) continue;
      pending.push(f);
      const passed = model.memberShrink.map((e) => e.factor > 0);
      if (!passed.some(Boolean) || passed.every(Boolean)) continue;
      let norm = 0;
      let sum = 0;
      for (let k = 0; k < 4; k++) {
        sum += f.weights[k]! * f.memberMu[k]!;
        if (passed[k]) norm += f.weights[k]!;
        else expect(f.memberMu[k] === 0).toBe(true);
      }
      expect(f.combinedMu).toBeCloseTo(sum / norm, 15);
      // The rule before 1.6.0 (every member's weight, the zero expert's left out) gives a smaller mean.
      if (Math.abs(sum / (1 - f.weights[ZERO_EXPERT]!)) < Math.abs(f.combinedMu)) diluted++;
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    expect(diluted).toBeGreaterThan(checked / 2);
  });

  it('a member without inputs contributes 0 (spot data has no funding)', () => {
    const fs = walk(syntheticBars(1000, 5), 990);
    for (const f of fs) {
      expect(f.memberMu[1]).toBe(0);
      expect(f.contributions.funding).toBe(0);
    }
  });
});

describe('numeric building blocks', () => {
  it('normal CDF and quantile invert each other', () => {
    for (const p of [0.001, 0.05, 0.3, 0.5, 0.8, 0.975]) expect(normCdf(normQuantile(p))).toBeCloseTo(p, 6);
  });

  it('grid CRPS agrees with the closed-form Gaussian CRPS within 1.5 %', () => {
    const rand = mulberry32(11);
    let grid = 0;
    let exact = 0;
    for (let i = 0; i < 2000; i++) {
      const y = normQuantile(rand()) * 1.3;
      grid += crpsFromGrid(gaussianGrid(0, 1), y);
      exact += crpsGaussian(0, 1, y);
    }
    expect(Math.abs(grid / exact - 1)).toBeLessThan(0.015);
  });

  it('ridge recovers a linear relation; PAVA is monotone; fixed share keeps a floor', () => {
    const r = new OnlineRidge(2, 1, 1, 10);
    const rand = mulberry32(3);
    for (let i = 0; i < 2000; i++) {
      const x = Float64Array.of(rand() - 0.5, rand() - 0.5);
      r.update(x, 2 * x[0]! - x[1]! + 0.3);
    }
    r.refit();
    const beta = Array.from(r.coefficients());
    [2, -1, 0.3].forEach((c, k) => {
      expect(Math.abs(beta[k]! - c)).toBeLessThan(0.03);
    });
    const blocks = pava([1, 2, 3, 4, 5], [1, 0, 1, 0, 1]);
    const means = blocks.map((b) => b.sum / b.count);
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeGreaterThanOrEqual(means[i - 1]!);
    const w = new FixedShareWeights(4, 1, 0.01);
    for (let i = 0; i < 1000; i++) w.update([0, 1, 1, 1]);
    expect(w.weights[0]!).toBeGreaterThan(0.9);
    expect(Math.min(...w.weights)).toBeGreaterThanOrEqual(0.01 / 4 - 1e-12);
  });

  it('isotonic calibration learns a monotone hit probability', () => {
    const iso = new IsotonicCalibrator(5000, 500, 300, 20);
    const rand = mulberry32(5);
    for (let i = 0; i < 5000; i++) {
      const s = rand();
      iso.add(s, rand() < 0.4 + 0.3 * s);
    }
    expect(iso.predict(0.05)).toBeLessThan(iso.predict(0.95));
    expect(iso.predict(0.95)).toBeGreaterThan(0.6);
  });

  it('adaptive conformal intervals reach nominal coverage on fat-tailed data with a wrong σ', () => {
    const cq = new ConformalQuantiles(2000, 0.005);
    const rand = mulberry32(9);
    const q = new Float64Array(GRID.length);
    let covered = 0;
    let n = 0;
    for (let i = 0; i < 20_000; i++) {
      const y = normQuantile(rand()) * (rand() < 0.1 ? 4 : 1);
      cq.quantiles(0, 0.5, q);
      if (i > 2000) {
        covered += q[9]! <= y && y <= q[89]! ? 1 : 0;
        n++;
      }
      cq.update(y, 0, 0.5, q);
    }
    expect(Math.abs(covered / n - 0.8)).toBeLessThan(0.01);
  });

  it('Diebold–Mariano is ~0 for identical losses and large for a clear difference', () => {
    expect(dieboldMariano(new Array(100).fill(0), 3).statistic).toBe(0);
    const rand = mulberry32(1);
    const d = Array.from({ length: 2000 }, () => 0.1 + (rand() - 0.5));
    expect(dieboldMariano(d, 3).statistic).toBeGreaterThan(5);
  });
});
