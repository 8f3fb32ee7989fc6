import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { normQuantile } from '../math.ts';
import { SigmaCombiner } from './sigma-pool.ts';
import { crpsGaussian } from '../scoring/metrics.ts';

/** True σ switching between calm and stormy regimes; outcomes are N(0, σ_t²). */
function regimes(n: number, seed: number) {
  const rand = mulberry32(seed);
  const sigma = new Float64Array(n);
  const y = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    sigma[t] = Math.floor(t / 200) % 2 === 0 ? 0.01 : 0.03;
    y[t] = sigma[t]! * normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12));
  }
  return { sigma, y };
}

/**
 * Walk-forward as in production: σ is forecast at step t, its outcome is scored `delay` steps later and
 * only then passed to `update`. Returns every σ forecast and the pool's final weights.
 */
function walk(candidates: (t: number) => number[], y: Float64Array, delay: number, pool: SigmaCombiner) {
  const sigmas: number[] = [];
  for (let t = 0; t < y.length; t++) {
    const scored = t - delay;
    if (scored >= 0) pool.update(candidates(scored), 0, y[scored]!);
    sigmas.push(pool.sigma(candidates(t)));
  }
  return sigmas;
}

describe('σ pool (fixed share on realized CRPS)', () => {
  it('learns toward the candidate with the lower realized CRPS, and judges shape, not level', () => {
    const n = 6000;
    const { sigma, y } = regimes(n, 3);
    // Candidate 0 tracks the regime but is 2× too wide (a level error the conformal layer would fix);
    // candidate 1 has the right average level and no regime information.
    const cands = (t: number) => [2 * sigma[t]!, 0.02];
    const pool = new SigmaCombiner(2, 0.05, 1e-4, 0.99);
    walk(cands, y, 3, pool);
    let crps0 = 0;
    let crps1 = 0;
    for (let t = 0; t < n; t++) {
      crps0 += crpsGaussian(0, sigma[t]!, y[t]!); // candidate 0 once its level is corrected
      crps1 += crpsGaussian(0, 0.02, y[t]!);
    }
    expect(crps0).toBeLessThan(crps1);
    expect(pool.weights[0]!).toBeGreaterThan(0.9);
    expect(pool.weights[0]! + pool.weights[1]!).toBeCloseTo(1, 12);
    // The level correction c_0² ≈ E[(y/σ_0)²] = 1/4.
    expect(pool.scale2[0]!).toBeGreaterThan(0.15);
    expect(pool.scale2[0]!).toBeLessThan(0.4);

    // Two candidates with the same shape and different levels stay near equal weight.
    const same = new SigmaCombiner(2, 0.05, 1e-4, 0.99);
    walk((t) => [sigma[t]!, 3 * sigma[t]!], y, 3, same);
    expect(Math.abs(same.weights[0]! - 0.5)).toBeLessThan(0.1);
  });

  it('never reads an outcome before it is scored: changing unscored outcomes changes no earlier σ', () => {
    const n = 3000;
    const delay = 72;
    const { sigma, y } = regimes(n, 11);
    const cands = (t: number) => [sigma[t]!, 0.02, Math.sqrt(0.02 * sigma[t]!)];
    const make = () => new SigmaCombiner(3, 0.2, 1e-3, 0.995);
    const a = walk(cands, y, delay, make());
    const cut = 2000;
    // Outcomes of forecasts made after cut - delay are not yet scored when σ at `cut` is forecast.
    const poisoned = Float64Array.from(y, (v, t) => (t > cut - delay ? v * 50 + 0.1 : v));
    const b = walk(cands, poisoned, delay, make());
    expect(b.slice(0, cut + 1)).toEqual(a.slice(0, cut + 1));
    expect(b.slice(cut + 1)).not.toEqual(a.slice(cut + 1));

    // Forecasting does not learn: σ is a pure function of the weights until `update` is called.
    const pool = make();
    const before = Float64Array.from(pool.weights);
    for (let t = 0; t < 100; t++) pool.sigma(cands(t));
    expect(pool.weights).toEqual(before);
  });
});
