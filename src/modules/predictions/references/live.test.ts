import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { HORIZON_MS, HORIZONS } from '../../identifiers/index.ts';
import { BarSeries } from '../features/series.ts';
import { SymbolForecaster } from '../models/engine.ts';
import type { Bar } from '../types.ts';
import { fitGarch, GarchReference } from './garch.ts';
import { fitOls, HarRvReference, harComponents } from './har-rv.ts';
import { publishedQuantiles, refitPhaseMs, SymbolReferences } from './live.ts';

const MIN = 60_000;
const DAY = 1440 * MIN;

/** 1-minute bars whose volatility clusters (a log-volatility AR(1)). */
function bars(days: number, seed: number): Bar[] {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const out: Bar[] = [];
  let price = 100;
  let lv = 0;
  for (let i = 0; i < days * 1440; i++) {
    lv = 0.999 * lv + 0.03 * normal();
    const open = price;
    price *= Math.exp(0.0008 * Math.exp(lv) * normal());
    out.push({
      openTime: Date.UTC(2025, 0, 1) + i * MIN,
      open,
      high: Math.max(open, price),
      low: Math.min(open, price),
      close: price,
      volume: 1,
    });
  }
  return out;
}

const tuningOf = (engine: SymbolForecaster) => (h: (typeof HORIZONS)[number]) => engine.models[h].tuning;

describe('live references', () => {
  it('fit what the backtester fits on the same bars: the same GARCH σ and parameters, the same HAR-RV coefficients', () => {
    const b = bars(4, 1);
    const live = new SymbolReferences(
      BarSeries.from('X', MIN, b),
      HORIZONS,
      tuningOf(new SymbolForecaster('X', HORIZONS, { stepMs: MIN })),
      DAY,
    );
    // The backtester's classes on their own copy of the bars: GARCH with its defaults (first fit after a day),
    // HAR-RV with the live first-fit delay.
    const s = BarSeries.from('X', MIN, b);
    const garch = new GarchReference(s);
    const har = HORIZONS.map((h) => new HarRvReference(s, HORIZON_MS[h], { minHistoryMs: DAY }));
    for (let i = 0; i < s.length; i += 1) {
      const out = live.at(i);
      HORIZONS.forEach((h, k) => {
        const g = garch.sigma(i, HORIZON_MS[h]);
        const r = har[k]!.sigma(i);
        expect(out.get(h)!.garch?.sigma).toBe(g);
        expect(out.get(h)!.har_rv?.sigma).toBe(r);
      });
    }
    expect(live.garch.fits).toBe(3);
    expect(live.garch.params).toEqual(garch.params);
    HORIZONS.forEach((h, k) => {
      expect(live.har.get(h)!.fits).toBeGreaterThanOrEqual(3);
      expect(live.har.get(h)!.coefficients).toEqual(har[k]!.coefficients);
    });
  });

  it('a refit reads exactly the bars held by then: GARCH on the window’s returns, HAR-RV on its realized rows', () => {
    const b = bars(3, 2);
    const s = BarSeries.from('X', MIN, b);
    const live = new SymbolReferences(
      s,
      HORIZONS,
      tuningOf(new SymbolForecaster('X', HORIZONS, { stepMs: MIN })),
      DAY,
    );
    // Walk to the bar of the second daily fit (the first at one day of history, the next a day later).
    const k = s.indexAt(s.closeTime[0]! + 2 * DAY);
    for (let i = 0; i <= k; i++) live.at(i);
    expect(live.garch.fits).toBe(2);
    const r = Float64Array.from({ length: k }, (_, j) => s.logClose[j + 1]! - s.logClose[j]!);
    const { negLogLikelihood: _, ...params } = fitGarch(r);
    expect(live.garch.params).toEqual(params);
    // HAR-RV 1h: rows up to an hour before the fit, each regressed on its realized next hour.
    const hm = HORIZON_MS['1h'];
    const xs: Float64Array[] = [];
    const ys: number[] = [];
    for (let j = 0; j <= s.back(k, hm); j++) {
      const x = harComponents(s, j, hm);
      const y = s.rvBetween(k, s.closeTime[j]!, s.closeTime[j]! + hm);
      if (x && y !== undefined) {
        xs.push(x);
        ys.push(y);
      }
    }
    expect(live.har.get('1h')!.coefficients!.b).toEqual(fitOls(xs, ys));
  });

  it('answers nothing before its first fit (a day plus the phase), both references after it', () => {
    const s = BarSeries.from('X', MIN, bars(2, 3));
    const phase = 5 * 60 * MIN;
    const live = new SymbolReferences(
      s,
      HORIZONS,
      tuningOf(new SymbolForecaster('X', HORIZONS, { stepMs: MIN })),
      DAY + phase,
    );
    const first = s.indexAt(s.closeTime[0]! + DAY + phase);
    for (let i = 0; i < first; i++) for (const h of HORIZONS) expect(live.at(i).get(h)).toEqual({});
    const at = live.at(first);
    for (const h of HORIZONS) {
      const q = at.get(h)!;
      expect(Object.keys(q).sort()).toEqual(['garch', 'har_rv']);
      // Zero-mean quantiles, ascending, σ × the layer's shape.
      const g = publishedQuantiles(q.garch!);
      expect(g[9]).toBe(0);
      for (let j = 1; j < g.length; j++) expect(g[j]!).toBeGreaterThan(g[j - 1]!);
    }
    // Phases spread a universe over the day.
    const phases = Array.from({ length: 500 }, (_, k) => refitPhaseMs(`SYM${k}USDT`));
    for (const p of phases) expect(p).toBeGreaterThanOrEqual(0);
    for (const p of phases) expect(p).toBeLessThan(DAY);
    expect(new Set(phases.map((p) => Math.floor(p / (60 * MIN)))).size).toBe(24);
  });

  it('holds its calibration windows within a fixed bound whatever the uptime, datapoints sharing shapes', () => {
    const s = BarSeries.from('X', MIN, bars(12, 4));
    const live = new SymbolReferences(
      s,
      HORIZONS,
      tuningOf(new SymbolForecaster('X', HORIZONS, { stepMs: MIN })),
      DAY,
    );
    const shapes = new Set<Float64Array>();
    for (let i = 0; i < s.length; i++) {
      const out = live.at(i);
      if (i >= s.length - 600)
        for (const q of out.values()) for (const f of Object.values(q)) shapes.add(f.shape);
    }
    // Per reference × horizon: a pooled and three σ-tercile layers of 500 residuals (8 B each in single
    // precision, with the sorted copy) and 30 days of σ at a 30-minute step (4 B each).
    expect(live.maxWindowBytes).toBe(2 * 3 * (4 * 500 * 8 + 1440 * 4));
    expect(live.heldBytes).toBeGreaterThan(0);
    expect(live.heldBytes).toBeLessThanOrEqual(live.maxWindowBytes);
    // 600 forecasts × 6 in the last ten hours: a shape per layer between two lessons, not one per datapoint.
    expect(shapes.size).toBeLessThan(200);
  });
});

describe('GARCH reference on a series that drops its oldest bars', () => {
  it('runs on unchanged: the cursor is a time, not an index', () => {
    const b = bars(6, 5);
    const whole = BarSeries.from('X', MIN, b);
    const trimmed = new BarSeries('X', MIN);
    const options = { windowMs: DAY };
    const a = new GarchReference(whole, options);
    const c = new GarchReference(trimmed, options);
    let fits = 0;
    for (let i = 0; i < b.length; i++) {
      trimmed.append(b[i]!);
      trimmed.trim(2 * 1440);
      const j = trimmed.length - 1;
      const sa = a.sigma(i, HORIZON_MS['1h']);
      expect(c.sigma(j, HORIZON_MS['1h'])).toBe(sa);
      fits = c.fits;
    }
    expect(trimmed.length).toBeLessThan(b.length / 2);
    expect(fits).toBe(5);
  });
});
