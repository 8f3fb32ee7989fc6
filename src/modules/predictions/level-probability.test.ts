import { describe, expect, it } from 'vitest';
import { endAboveProbability, levelProbabilities, logQuantilesOf } from './level-probability.ts';
import { normCdf, normQuantile } from './math.ts';
import { PUBLIC_QUANTILES, quantileKey } from './types.ts';

/** The published quantiles (prices) of a log return N(mu, sigma²) over `baseline`. */
const gaussianQuantiles = (baseline: number, mu: number, sigma: number) =>
  Object.fromEntries(
    PUBLIC_QUANTILES.map((p) => [quantileKey(p), baseline * Math.exp(mu + sigma * normQuantile(p))]),
  );

/** A small seeded generator (mulberry32) and standard normal draws from it. */
function normals(seed: number) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

describe('level probabilities', () => {
  it('reproduces a Gaussian distribution inside and beyond the published quantiles', () => {
    const sigma = 0.01;
    const mu = 0.002;
    const logQ = logQuantilesOf(100, gaussianQuantiles(100, mu, sigma));
    for (const z of [-4, -2.5, -1.7, -1, -0.3, 0, 0.4, 1.2, 1.9, 3]) {
      const x = mu + z * sigma;
      expect(endAboveProbability(logQ, x)).toBeCloseTo(1 - normCdf(z), 6);
    }
  });

  it('keeps the conformal shape: each published quantile is met exactly, and the answer falls with the level', () => {
    // A fat-tailed, asymmetric set of quantiles (what an adapted conformal layer after a move can give).
    const quantiles = Object.fromEntries(
      PUBLIC_QUANTILES.map((p) => {
        const z = normQuantile(p);
        return [quantileKey(p), 200 * Math.exp(0.01 * z * (1 + 0.6 * Math.abs(z)) + (z > 0 ? 0.002 * z : 0))];
      }),
    );
    const logQ = logQuantilesOf(200, quantiles);
    for (const p of PUBLIC_QUANTILES)
      expect(endAboveProbability(logQ, Math.log(quantiles[quantileKey(p)]! / 200))).toBeCloseTo(1 - p, 6);
    const levels = Array.from({ length: 200 }, (_, k) => 180 + k * 0.2);
    const answers = levelProbabilities({ baseline: 200, quantiles }, levels);
    for (let k = 1; k < answers.length; k++)
      expect(answers[k]!.endAbove).toBeLessThanOrEqual(answers[k - 1]!.endAbove);
    expect(answers[0]!.endAbove).toBeGreaterThan(0.99);
    expect(answers.at(-1)!.endAbove).toBeLessThan(0.01);
  });

  it('touch: twice the probability of ending beyond the level, capped at 1, 1 at the baseline, never below ending beyond', () => {
    const quantiles = gaussianQuantiles(100, 0, 0.02);
    const [below, at, above, far] = levelProbabilities({ baseline: 100, quantiles }, [97, 100, 102, 110]);
    expect(at!.touch).toBe(1);
    expect(above!.touch).toBeCloseTo(2 * (1 - normCdf(Math.log(1.02) / 0.02)), 4);
    expect(below!.touch).toBeCloseTo(2 * normCdf(Math.log(0.97) / 0.02), 4);
    expect(far!.touch).toBeLessThan(0.001);
    for (const r of [below!, above!, far!]) {
      const beyond = r.level > 100 ? r.endAbove : 1 - r.endAbove;
      expect(r.touch).toBeGreaterThanOrEqual(beyond);
      expect(r.touch).toBeLessThanOrEqual(1);
    }
  });

  it('touch matches the share of simulated driftless random-walk paths that reach the level', () => {
    const draw = normals(7);
    const steps = 240;
    const sigma = 0.01; // over the whole horizon
    const paths = 4000;
    const levels = [0.995, 0.99, 1.01, 1.02];
    const reached = levels.map(() => 0);
    for (let p = 0; p < paths; p++) {
      let x = 0;
      let max = 0;
      let min = 0;
      for (let s = 0; s < steps; s++) {
        x += (sigma / Math.sqrt(steps)) * draw();
        if (x > max) max = x;
        if (x < min) min = x;
      }
      levels.forEach((l, k) => {
        const b = Math.log(l);
        if (b > 0 ? max >= b : min <= b) reached[k]!++;
      });
    }
    const answers = levelProbabilities({ baseline: 1, quantiles: gaussianQuantiles(1, 0, sigma) }, levels);
    answers.forEach((a, k) => {
      // Sampling error ≤ 0.008 (sd of a share of 4,000); discrete monitoring misses a few crossings.
      expect(Math.abs(a.touch - reached[k]! / paths), `level ${levels[k]}`).toBeLessThan(0.04);
    });
  });
});
