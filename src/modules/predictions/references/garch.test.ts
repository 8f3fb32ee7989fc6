import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { fitGarch, garchHorizonVariance, garchNegLogLikelihood } from './garch.ts';
import { nelderMead } from './nelder-mead.ts';

function normal(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** Returns of a GARCH(1,1) process started at its unconditional variance. */
function simulate(n: number, omega: number, alpha: number, beta: number, seed: number): Float64Array {
  const z = normal(mulberry32(seed));
  const r = new Float64Array(n);
  let h = omega / (1 - alpha - beta);
  for (let t = 0; t < n; t++) {
    r[t] = Math.sqrt(h) * z();
    h = omega + alpha * r[t]! * r[t]! + beta * h;
  }
  return r;
}

describe('GARCH(1,1)', () => {
  it('Nelder–Mead finds the minimum of a bowl', () => {
    const fit = nelderMead((x) => (x[0]! - 1) ** 2 + 3 * (x[1]! + 2) ** 2, [0, 0], { tolerance: 1e-14 });
    expect(fit.x[0]).toBeCloseTo(1, 4);
    expect(fit.x[1]).toBeCloseTo(-2, 4);
  });

  it.each([
    [0.08, 0.9, 1],
    [0.15, 0.8, 2],
    [0.05, 0.93, 3],
  ])('recovers α %f, β %f of a simulated series (seed %i)', (alpha, beta, seed) => {
    const omega = 1e-6 * (1 - alpha - beta);
    const r = simulate(20_000, omega, alpha, beta, seed);
    const p = fitGarch(r);
    expect(Math.abs(p.alpha - alpha)).toBeLessThan(0.025);
    expect(Math.abs(p.beta - beta)).toBeLessThan(0.04);
    // The unconditional variance ω / (1 − α − β) within 15 %.
    expect(p.omega / (1 - p.alpha - p.beta) / 1e-6).toBeGreaterThan(0.85);
    expect(p.omega / (1 - p.alpha - p.beta) / 1e-6).toBeLessThan(1.15);
    // The optimum is at least as likely as the true parameters (the optimiser converged).
    const s2 = r.reduce((s, x) => s + x * x, 0) / r.length;
    const scaled = r.map((x) => x / Math.sqrt(s2));
    const truth = garchNegLogLikelihood(scaled, { omega: omega / s2, alpha, beta }, 1);
    expect(p.negLogLikelihood).toBeLessThanOrEqual(truth + 1e-6);
  });

  it('keeps ω > 0, α, β ≥ 0 and α + β < 1 on white noise', () => {
    const z = normal(mulberry32(9));
    const r = Float64Array.from({ length: 5000 }, () => 0.001 * z());
    const p = fitGarch(r);
    expect(p.omega).toBeGreaterThan(0);
    expect(p.alpha).toBeGreaterThanOrEqual(0);
    expect(p.beta).toBeGreaterThanOrEqual(0);
    expect(p.alpha + p.beta).toBeLessThan(1);
    expect(p.alpha).toBeLessThan(0.03);
  });

  it('sums the multi-step variance forecasts', () => {
    const p = { omega: 0.02, alpha: 0.1, beta: 0.8 };
    let h = 0.5;
    let sum = 0;
    for (let j = 0; j < 30; j++) {
      sum += h;
      h = p.omega + (p.alpha + p.beta) * h;
    }
    expect(garchHorizonVariance(p, 0.5, 30)).toBeCloseTo(sum, 12);
    expect(garchHorizonVariance(p, 0.5, 1)).toBeCloseTo(0.5, 12);
  });
});
