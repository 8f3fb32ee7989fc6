import { describe, expect, it } from 'vitest';
import { normCdf } from '../math.ts';
import { calibratedWorld } from './calibrated-world.ts';

const STEP = 5 * 60_000;

function world(
  n: number,
  overlap: number,
  mu: (k: number) => number,
  sigma: (k: number) => number,
  seed = 7,
) {
  return calibratedWorld({
    t: Float64Array.from({ length: n }, (_, k) => 1_600_000_000_000 + k * STEP),
    mu: Float64Array.from({ length: n }, (_, k) => mu(k)),
    sigma: Float64Array.from({ length: n }, (_, k) => sigma(k)),
    stepMs: STEP,
    horizonMs: overlap * STEP,
    replications: 200,
    seed,
  })!;
}

describe('calibrated world', () => {
  it('is calibrated: an exactly right forecaster covers 80 % and hits half the time, up to sampling noise', () => {
    const w = world(
      20_000,
      1,
      () => 0,
      () => 0.01,
    );
    expect(w.coverage80.median).toBeCloseTo(0.8, 2);
    expect(w.hitRate.median).toBeCloseTo(0.5, 2);
    // Independent outcomes: the 90 % range of the coverage is ≈ ±1.645 √(0.16 / n).
    const halfWidth = 1.645 * Math.sqrt(0.16 / 20_000);
    expect((w.coverage80.p95 - w.coverage80.p5) / 2).toBeGreaterThan(0.7 * halfWidth);
    expect((w.coverage80.p95 - w.coverage80.p5) / 2).toBeLessThan(1.3 * halfWidth);
    expect(w.meets.coverage80).toBe(1);
    expect(w.independentOutcomes).toBeCloseTo(20_000, -1);
  });

  it('publishes a confidence that is the probability of its side: hit rate ≈ mean confidence', () => {
    const mu = (k: number) => 0.006 * Math.sin(k / 40);
    const w = world(20_000, 1, mu, () => 0.01);
    let meanConf = 0;
    for (let k = 0; k < 20_000; k++) meanConf += normCdf(Math.abs(mu(k)) / 0.01);
    meanConf /= 20_000;
    expect(meanConf).toBeGreaterThan(0.6);
    expect(w.hitRate.median).toBeCloseTo(meanConf, 2);
    expect(w.eceEqualMass.median).toBeLessThan(0.015);
  });

  it('counts overlapping outcomes as the near-duplicates they are: the same forecasts, 72 × wider noise in variance', () => {
    const independent = world(
      20_000,
      1,
      () => 0,
      () => 0.01,
    );
    const overlapping = world(
      20_000,
      72,
      () => 0,
      () => 0.01,
    );
    const width = (w: typeof independent) => w.coverage80.p95 - w.coverage80.p5;
    // √72 ≈ 8.5 in theory; the Bartlett-like overlap correlation makes it somewhat less.
    expect(width(overlapping) / width(independent)).toBeGreaterThan(4);
    expect(overlapping.independentOutcomes).toBeLessThan(300);
    expect(overlapping.coverage80.median).toBeGreaterThan(0.77);
    expect(overlapping.coverage80.median).toBeLessThan(0.83);
    expect(overlapping.meets.eceEqualMass).toBeLessThan(independent.meets.eceEqualMass);
  });

  it('puts calm and stormy weeks where they were: terciles of σ hold coverage in expectation', () => {
    const sigma = (k: number) => 0.01 * Math.exp(0.5 * Math.sin(k / 500));
    const w = world(30_000, 12, () => 0, sigma);
    for (const t of w.coverage80BySigmaTercile) {
      expect(t.median).toBeGreaterThan(0.78);
      expect(t.median).toBeLessThan(0.82);
    }
  });

  it('is reproducible by seed and needs enough forecasts', () => {
    expect(
      world(
        1000,
        3,
        () => 0,
        () => 0.01,
        3,
      ),
    ).toEqual(
      world(
        1000,
        3,
        () => 0,
        () => 0.01,
        3,
      ),
    );
    expect(
      world(
        20,
        1,
        () => 0,
        () => 0.01,
      ),
    ).toBeUndefined();
  });
});
