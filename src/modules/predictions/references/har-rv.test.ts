import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { BarSeries } from '../features/series.ts';
import type { Bar } from '../types.ts';
import { fitOls, HAR_WINDOWS, HarRvReference } from './har-rv.ts';

const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length;

describe('HAR-RV', () => {
  it('the OLS fit recovers the coefficients of a simulated HAR-RV process', () => {
    const rand = mulberry32(11);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    // RV_{t+1} = c + b1 RV_t + b5 mean(RV_{t-4..t}) + b22 mean(RV_{t-21..t}) + heteroskedastic noise, on the
    // scale of per-ms variances (~1e-11), as the backtest feeds it.
    const [c, b1, b5, b22] = [0.1e-11, 0.4, 0.3, 0.2];
    const rv: number[] = Array.from({ length: 22 }, () => 1e-11);
    const xs: number[][] = [];
    const ys: number[] = [];
    for (let t = 21; t < 30_000; t++) {
      const x = HAR_WINDOWS.map((w) => mean(rv.slice(t + 1 - w, t + 1)));
      const m = c + b1 * x[0]! + b5 * x[1]! + b22 * x[2]!;
      const next = Math.max(m * (1 + 0.3 * normal()), 0.05 * m);
      rv.push(next);
      if (t >= 100) {
        xs.push(x);
        ys.push(next);
      }
    }
    const b = fitOls(xs, ys);
    expect(Math.abs(b[1]! - b1)).toBeLessThan(0.05);
    expect(Math.abs(b[2]! - b5)).toBeLessThan(0.07);
    expect(Math.abs(b[3]! - b22)).toBeLessThan(0.07);
    expect(b[0]! / c).toBeGreaterThan(0.5);
    expect(b[0]! / c).toBeLessThan(1.5);
  });

  it('fits walk-forward on a series whose variance persists: the fitted slopes carry the persistence', () => {
    const rand = mulberry32(5);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const bars: Bar[] = [];
    let price = 100;
    const start = Date.UTC(2024, 0, 1);
    let logVol = Math.log(0.002);
    for (let i = 0; i < 6000; i++) {
      // Log-volatility AR(1) with hourly-scale persistence: realized variance predicts realized variance.
      logVol = Math.log(0.002) + 0.995 * (logVol - Math.log(0.002)) + 0.08 * normal();
      const open = price;
      price *= Math.exp(Math.exp(logVol) * normal());
      bars.push({
        openTime: start + i * 300_000,
        open,
        high: Math.max(open, price),
        low: Math.min(open, price),
        close: price,
        volume: 1,
      });
    }
    const s = BarSeries.from('X', 300_000, bars);
    const har = new HarRvReference(s, 3_600_000);
    for (let i = 0; i < s.length; i++) har.variance(i);
    expect(har.fits).toBeGreaterThan(10);
    const b = har.coefficients!.b;
    // Persistent variance: the components carry weight, and the fitted slopes sum to well above 0.
    expect(b[1]! + b[2]! + b[3]!).toBeGreaterThan(0.5);
    expect(b[1]! + b[2]! + b[3]!).toBeLessThan(1.1);
  });
});
