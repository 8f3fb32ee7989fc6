import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../../shared/random.ts';
import { HORIZON_MS, HORIZONS } from '../../../identifiers/index.ts';
import { BarSeries } from '../../features/series.ts';
import { SymbolForecaster } from '../../models/engine.ts';
import type { Bar } from '../../types.ts';
import { runBacktest } from '../run.ts';
import { GarchReference } from '../../references/garch.ts';
import { HarRvReference } from '../../references/har-rv.ts';
import { StrongReferences } from './index.ts';

const BAR = 5 * 60_000;

/** 5-minute bars whose volatility clusters (a GARCH-like log-volatility walk). */
function bars(n: number, seed: number): Bar[] {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const out: Bar[] = [];
  let price = 100;
  let lv = 0;
  for (let i = 0; i < n; i++) {
    lv = 0.99 * lv + 0.1 * normal();
    const open = price;
    price *= Math.exp(0.002 * Math.exp(lv) * normal());
    out.push({
      openTime: Date.UTC(2024, 0, 1) + i * BAR,
      open,
      high: Math.max(open, price) * 1.0003,
      low: Math.min(open, price) * 0.9997,
      close: price,
      volume: 5 + rand(),
    });
  }
  return out;
}

const poison = (b: readonly Bar[], k: number): Bar[] =>
  b.map((x, i) =>
    i > k ? { ...x, open: x.open * 7, high: x.high * 9, low: x.low * 0.1, close: x.close * 5 } : x,
  );

function sigmas(b: readonly Bar[], last: number): number[] {
  const s = BarSeries.from('X', BAR, b);
  const engine = new SymbolForecaster('X', HORIZONS, { stepMs: BAR });
  const refs = new StrongReferences(s, HORIZONS, BAR, (h) => engine.models[h].tuning);
  const out: number[] = [];
  for (let i = 0; i <= last; i++)
    for (const h of HORIZONS) {
      const f = refs.forecast(i, h);
      out.push(f.garch.sigma, f.har_rv.sigma);
    }
  return out;
}

/** The bars where a reference refitted while walking a clean series. */
function fitBars(fits: () => number, step: (i: number) => void, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = fits();
    step(i);
    if (fits() > before) out.push(i);
  }
  return out;
}

describe('strong references: no look-ahead', () => {
  it('a refit at bar k reads nothing after k: poisoning the bars after a refit changes neither fit nor σ', () => {
    const clean = bars(4000, 3);
    const s = BarSeries.from('X', BAR, clean);
    const garch = new GarchReference(s);
    const har = new HarRvReference(s, HORIZON_MS['6h']);
    const gk = fitBars(
      () => garch.fits,
      (i) => garch.sigma(i, HORIZON_MS['1h']),
      s.length,
    ).at(-2)!;
    const hk = fitBars(
      () => har.fits,
      (i) => har.variance(i),
      s.length,
    ).at(-2)!;
    for (const k of [gk, hk]) {
      const walk = (b: readonly Bar[]) => {
        const p = BarSeries.from('X', BAR, b);
        const g = new GarchReference(p);
        const r = new HarRvReference(p, HORIZON_MS['6h']);
        const out: (number | undefined)[] = [];
        for (let i = 0; i <= k; i++) out.push(g.sigma(i, HORIZON_MS['1h']), r.variance(i));
        return { out, garch: g.params, har: r.coefficients };
      };
      const a = walk(clean);
      expect(a.garch).toBeDefined();
      expect(a.har).toBeDefined();
      expect(walk(poison(clean, k))).toEqual(a);
    }
  });

  it('poisoning every bar after bar k changes no GARCH or HAR-RV σ at or before k', () => {
    const clean = bars(4000, 3);
    const k = 3500;
    const a = sigmas(clean, k);
    expect(a.every((x) => x > 0 && Number.isFinite(x))).toBe(true);
    expect(sigmas(poison(clean, k), k)).toEqual(a);
  });

  it('a backtest up to bar k reports the same reference scores, fits and DM with a poisoned future', () => {
    const clean = bars(4000, 4);
    const k = 3600;
    const run = (b: Bar[]) =>
      runBacktest({
        symbol: 'X',
        bars: new Map([['X', b]]),
        to: b[k]!.openTime + BAR,
        leakageCheck: false,
        calibratedWorldReplications: 0,
      });
    const a = run(clean);
    const refs = a.horizons['1h']!.strongReferences!;
    expect(refs.garch!.fits).toBeGreaterThan(5);
    expect(refs.harRv!.fits).toBeGreaterThan(5);
    expect(refs.versus.garch.crps).toBeGreaterThan(0);
    // Its own fit catches the clustering: α > 0, persistence high.
    expect(refs.garch!.alpha).toBeGreaterThan(0.01);
    expect(refs.garch!.alpha + refs.garch!.beta).toBeGreaterThan(0.9);
    const b = run(poison(clean, k));
    for (const h of HORIZONS)
      expect(b.horizons[h]!.strongReferences).toEqual(a.horizons[h]!.strongReferences);
  }, 240_000);
});
