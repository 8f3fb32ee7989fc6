import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { normCdf } from '../math.ts';
import { calibrationBinsEqualMass } from '../scoring/metrics.ts';
import { calibratedWorld } from './calibrated-world.ts';
import { walkMaxTable, windowExtremes } from './calibrated-world-levels.ts';

const STEP = 60_000;
const N = 6000;
const OVERLAP = 15;
const SIGMAS = [-1, 0.5, 2];
/** A calm and a stormy stretch, as the world's σ follows the model's. */
const sigmaAt = (k: number) => 0.004 * (1 + 0.6 * Math.sin(k / 700));

/**
 * One period drawn independently of the calibrated world's own draws, with an exactly right forecaster: a
 * Gaussian walk whose step variance is σ² / overlap, end-above from N(0, S²) and touch from the walk's law.
 */
function exactlyRightEce(seed: number, touchTable: (z: number, d: number) => number) {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(rand() || Number.MIN_VALUE)) * Math.cos(2 * Math.PI * rand());
  const steps = N + OVERLAP + 1;
  const path = new Float64Array(steps);
  for (let j = 1; j < steps; j++) path[j] = path[j - 1]! + (sigmaAt(j - 1) / Math.sqrt(OVERLAP)) * normal();
  const starts = Int32Array.from({ length: N }, (_, k) => k);
  const max = new Float64Array(N);
  const min = new Float64Array(N);
  windowExtremes(path, starts, OVERLAP, max, min);
  return SIGMAS.map((k) => {
    const pEnd: number[] = [];
    const end: number[] = [];
    const pTouch: number[] = [];
    const touched: number[] = [];
    for (let i = 0; i < N; i++) {
      let v = 0;
      for (let j = i + 1; j <= i + OVERLAP; j++) v += sigmaAt(j - 1) ** 2 / OVERLAP;
      const S = Math.sqrt(v);
      const x = k * sigmaAt(i);
      pEnd.push(1 - normCdf(x / S));
      end.push(path[i + OVERLAP]! - path[i]! > x ? 1 : 0);
      pTouch.push(k > 0 ? touchTable(x / S, 0) : touchTable(-x / S, 0));
      touched.push(k > 0 ? (max[i]! - path[i]! >= x ? 1 : 0) : min[i]! - path[i]! <= x ? 1 : 0);
    }
    return {
      endAbove: calibrationBinsEqualMass(pEnd, end).ece,
      touch: calibrationBinsEqualMass(pTouch, touched).ece,
    };
  });
}

describe('calibrated world of the level probabilities', () => {
  it('finds the running extremes of every overlapping window', () => {
    const rand = mulberry32(2);
    const path = Float64Array.from({ length: 200 }, () => rand());
    const starts = Int32Array.from([0, 1, 2, 5, 9, 30, 31, 100, 180]);
    const max = new Float64Array(starts.length);
    const min = new Float64Array(starts.length);
    windowExtremes(path, starts, 19, max, min);
    starts.forEach((a, k) => {
      const window = Array.from(path.subarray(a + 1, a + 20));
      expect(max[k]).toBe(Math.max(...window));
      expect(min[k]).toBe(Math.min(...window));
    });
  });

  it('tabulates the touch law of a discrete walk: below the continuous reflection 2 P(end ≥ z)', () => {
    const table = walkMaxTable(OVERLAP, 4);
    for (const z of [0.5, 1, 2]) {
      expect(table(z, 0)).toBeLessThan(2 * (1 - normCdf(z)));
      expect(table(z, 0)).toBeGreaterThan(1 - normCdf(z));
    }
    expect(table(1, 0.5)).toBeGreaterThan(table(1, 0));
  });

  it('holds an exactly right forecaster’s ECE within its 5–95 % range in most draws, at every level', () => {
    const world = calibratedWorld({
      t: Float64Array.from({ length: N }, (_, k) => k * STEP),
      mu: new Float64Array(N),
      sigma: Float64Array.from({ length: N }, (_, k) => sigmaAt(k)),
      stepMs: STEP,
      horizonMs: OVERLAP * STEP,
      replications: 100,
      seed: 1,
      levelSigmas: SIGMAS,
    })!;
    const table = walkMaxTable(OVERLAP, 99);
    const inside = { endAbove: 0, touch: 0 };
    const seeds = 20;
    for (let seed = 100; seed < 100 + seeds; seed++) {
      exactlyRightEce(seed, table).forEach((e, i) => {
        const w = world.levels![i]!;
        if (e.endAbove >= w.endAbove.p5 && e.endAbove <= w.endAbove.p95) inside.endAbove++;
        if (e.touch >= w.touch!.p5 && e.touch <= w.touch!.p95) inside.touch++;
      });
    }
    // 90 % expected inside; 60 draws per kind.
    expect(inside.endAbove / (seeds * SIGMAS.length)).toBeGreaterThan(0.75);
    expect(inside.touch / (seeds * SIGMAS.length)).toBeGreaterThan(0.75);
  });
});
