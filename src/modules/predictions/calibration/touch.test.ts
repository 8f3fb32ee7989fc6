import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { BarSeries } from '../features/series.ts';
import { levelProbabilities, logQuantilesOf, pathRanks } from '../level-probability.ts';
import { normQuantile } from '../math.ts';
import type { Live } from '../read-model.ts';
import type { PredictionRow } from '../repository.ts';
import { learnTouch, scoreDue } from '../score-due.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../types.ts';
import { SortedWindow, TOUCH_MIN_OUTCOMES, type TouchCalibrator, TouchExcursions } from './touch.ts';

const gaussianQuantiles = (baseline: number, sigma: number) =>
  Object.fromEntries(
    PUBLIC_QUANTILES.map((p) => [quantileKey(p), baseline * Math.exp(sigma * normQuantile(p))]),
  );

function normals(seed: number) {
  const rand = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(rand() || Number.MIN_VALUE)) * Math.cos(2 * Math.PI * rand());
}

/**
 * A random walk of `steps` seen through microstructure noise (each observed log price is the walk plus an
 * independent N(0, η²)): the path's extremes pick up the noise at every step, its end only once, so the
 * reflection principle on the end distribution understates touches.
 */
function noisyPath(draw: () => number, steps: number, eta: number) {
  const e0 = eta * draw();
  let w = 0;
  let max = Number.NEGATIVE_INFINITY;
  let min = Number.POSITIVE_INFINITY;
  let end = 0;
  for (let j = 1; j <= steps; j++) {
    w += draw() / Math.sqrt(steps);
    end = w + eta * draw() - e0;
    max = Math.max(max, end);
    min = Math.min(min, end);
  }
  return { maxLog: max, minLog: min, end };
}

describe('sorted window', () => {
  it('answers the share at or below a value over exactly the last `capacity` numbers', () => {
    const rand = mulberry32(3);
    const w = new SortedWindow(100);
    const all: number[] = [];
    for (let k = 0; k < 350; k++) {
      const v = Math.fround(Math.floor(rand() * 40) / 8);
      w.add(v);
      all.push(v);
      const held = all.slice(-100);
      for (const x of [0, 1.25, 2.5, 4.875, 6])
        expect(w.shareAtMost(x)).toBeCloseTo(held.filter((h) => h <= x).length / held.length, 12);
    }
    expect(w.size).toBe(100);
  });
});

describe('touch excursions', () => {
  it('recover the touch frequency of noisy random-walk paths where the reflection principle understates it', () => {
    const draw = normals(11);
    const eta = 0.12;
    const S = Math.sqrt(1 + 2 * eta * eta); // the exact sd of the end: the forecaster's distribution is right
    const quantiles = gaussianQuantiles(1, S);
    const logQ = logQuantilesOf(1, quantiles);
    const hour = HORIZON_MS['1h'];
    const ex = new TouchExcursions(hour);
    for (let k = 0; k < 2048; k++) ex.add(k * hour, pathRanks(logQ, noisyPath(draw, 200, eta)));
    const levels = [-1.25, -0.75, 0.5, 1, 1.25].map((z) => Math.exp(z * S));
    const reached = levels.map(() => 0);
    const tests = 4000;
    for (let k = 0; k < tests; k++) {
      const p = noisyPath(draw, 200, eta);
      levels.forEach((l, i) => {
        const x = Math.log(l);
        if (x > 0 ? p.maxLog >= x : p.minLog <= x) reached[i]!++;
      });
    }
    const learned = levelProbabilities({ baseline: 1, quantiles }, levels, ex);
    const reflection = levelProbabilities({ baseline: 1, quantiles }, levels);
    let worst = 0;
    learned.forEach((a, i) => {
      const frequency = reached[i]! / tests;
      expect(a.touchMethod).toBe('empirical');
      // Sampling error of both shares ≤ 0.011 each (sd); the reflection answer is below at every level.
      expect(Math.abs(a.touch - frequency), `level ${levels[i]}`).toBeLessThan(0.03);
      expect(frequency - reflection[i]!.touch, `level ${levels[i]}`).toBeGreaterThan(0.01);
      expect(reflection[i]!.touchMethod).toBe('reflection');
      worst = Math.max(worst, frequency - reflection[i]!.touch);
    });
    expect(worst).toBeGreaterThan(0.06);
  });

  it('answers with the reflection principle, and says so, until enough outcomes are held', () => {
    const ex = new TouchExcursions(HORIZON_MS['15m']);
    const logQ = logQuantilesOf(100, gaussianQuantiles(100, 0.01));
    const draw = normals(5);
    const quantiles = gaussianQuantiles(100, 0.01);
    for (let k = 0; k < TOUCH_MIN_OUTCOMES - 1; k++)
      ex.add(k * HORIZON_MS['15m'], pathRanks(logQ, noisyPath(draw, 50, 0.001)));
    expect(levelProbabilities({ baseline: 100, quantiles }, [101])[0]).toEqual(
      levelProbabilities({ baseline: 100, quantiles }, [101], ex)[0],
    );
    // Closer than a third of the horizon to the last one held: not held (overlapping paths are near-copies).
    ex.add((TOUCH_MIN_OUTCOMES - 1.8) * HORIZON_MS['15m'], { up: 0.2, down: 0.2 });
    expect(ex.size).toBe(TOUCH_MIN_OUTCOMES - 1);
    ex.add(TOUCH_MIN_OUTCOMES * HORIZON_MS['15m'], { up: 0.2, down: 0.2 });
    expect(levelProbabilities({ baseline: 100, quantiles }, [101], ex)[0]!.touchMethod).toBe('empirical');
  });
});

describe('touch outcomes in the live scoring', () => {
  const MINUTE = 60_000;
  const t0 = 1_700_000_000_000;

  /** 1m bars from t0 − 1 h to t0 + 3 h; after `poisonFrom` every high is 10× and every low a tenth. */
  function series(poisonFrom: number) {
    const draw = normals(9);
    let p = 100;
    const s = new BarSeries('BTCUSDT', MINUTE);
    for (let open = t0 - 60 * MINUTE; open < t0 + 180 * MINUTE; open += MINUTE) {
      const close = p * Math.exp(0.001 * draw());
      const poisoned = open + MINUTE > poisonFrom;
      const high = Math.max(p, close) * (poisoned ? 10 : 1.0005);
      const low = Math.min(p, close) / (poisoned ? 10 : 1.0005);
      s.append({ openTime: open, open: p, high, low, close, volume: 1 });
      p = close;
    }
    return s;
  }

  function row(generatedAt: number, horizon: Horizon): Live {
    const r = {
      symbol: 'BTCUSDT',
      horizon,
      generated_at: generatedAt,
      baseline: 100,
      prediction: 100,
      quantiles: gaussianQuantiles(100, 0.003),
      sigma_rw: 0.003,
    } as unknown as PredictionRow;
    return { row: r } as Live;
  }

  /** Scores the rows at `now` and returns what the touch excursions were fed (time, horizon, ranks). */
  function fed(now: number, s: BarSeries) {
    const added: unknown[] = [];
    const touch = {
      of: (h: Horizon) => ({ add: (t: number, ranks: unknown) => added.push({ t, h, ranks }) }),
    } as unknown as TouchCalibrator<Horizon>;
    scoreDue(now, {
      unscored: [row(t0, '1h'), row(t0 + 30 * MINUTE, '1h'), row(t0 + 20 * MINUTE, '15m')],
      series: new Map([['BTCUSDT', s]]),
      modelOf: () => ({ learn() {} }) as never,
      trackScored: () => {},
      touchOf: () => touch,
    });
    return added;
  }

  it('learns only from outcomes whose horizon has passed, from bars that closed by then (future bars poisoned)', () => {
    const now = t0 + 60 * MINUTE;
    const clean = fed(now, series(Number.POSITIVE_INFINITY));
    const poisoned = fed(now, series(now));
    // The 1h forecast made at t0 and the 15m one at t0 + 20 min are due; the 1h one at t0 + 30 min is not.
    expect(clean.map((a) => (a as { t: number }).t)).toEqual([t0, t0 + 20 * MINUTE]);
    expect(poisoned).toEqual(clean);
    // The poisoned bars would move the ranks if read: what the check above would catch.
    const later = fed(t0 + 90 * MINUTE, series(now));
    expect(later).not.toEqual(fed(t0 + 90 * MINUTE, series(Number.POSITIVE_INFINITY)));
  });

  it('reads the path from the forecast to its horizon, ranked under the published quantiles', () => {
    const s = series(Number.POSITIVE_INFINITY);
    const added: { t: number; ranks: { up: number; down: number } }[] = [];
    const touch = { of: () => ({ add: (t: number, ranks: never) => added.push({ t, ranks }) }) } as never;
    const logQ = logQuantilesOf(100, gaussianQuantiles(100, 0.003));
    learnTouch(touch, s, { t: t0, horizon: '1h', baseline: 100 }, logQ);
    const path = s.extremes(t0, t0 + HORIZON_MS['1h'], 100)!;
    expect(added).toEqual([{ t: t0, ranks: pathRanks(logQ, path) }]);
    expect(path.maxLog).toBeGreaterThanOrEqual(path.minLog);
  });
});
