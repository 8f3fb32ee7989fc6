import { GRID_INDEX } from './calibration/conformal.ts';
import type { PathExtremes, PathRanks, TouchExcursions } from './calibration/touch.ts';
import type { Horizon } from '../identifiers/index.ts';
import { normCdf, normQuantile } from './math.ts';
import { PUBLIC_QUANTILES, quantileKey } from './types.ts';

/**
 * Probabilities of a price level from a published datapoint's predictive distribution: the p05…p95 quantiles
 * of the forecast price, which come from the conformal layer (docs/forecasting.md, "Probability of a level").
 */

export interface LevelProbability {
  level: number;
  /** P(price at the horizon > level). */
  endAbove: number;
  /** P(the price reaches the level at some time before the horizon). */
  touch: number;
  /**
   * How `touch` was computed: `empirical` from the walk-forward distribution of past paths' excursions
   * (calibration/touch.ts); `reflection` from the reflection principle, a lower bound, until enough outcomes are
   * held (or where no model runs, as on an API replica).
   */
  touchMethod: TouchMethod;
}

export type TouchMethod = 'empirical' | 'reflection';

/** Where the API and the alert rules find a symbol × horizon's learned excursions (undefined: none here). */
export type TouchExcursionsOf = (
  symbol: string,
  horizon: Horizon,
) => Pick<TouchExcursions, 'probability'> | undefined;

/** Standard normal scores of the published quantile levels (p50 → 0). */
const Z = PUBLIC_QUANTILES.map((p) => normQuantile(p));
const MEDIAN = PUBLIC_QUANTILES.indexOf(0.5);

/**
 * P(log return > x) from the published quantiles: between two adjacent quantiles the normal score is
 * interpolated linearly in log price (exact for a Gaussian, the conformal shape kept at every 5 %); beyond p05
 * and p95, a Gaussian tail with the scale of the outer half (median to p05, or median to p95).
 */
export function endAboveProbability(logQuantiles: readonly number[], x: number): number {
  const n = logQuantiles.length;
  const first = logQuantiles[0]!;
  const last = logQuantiles[n - 1]!;
  const median = logQuantiles[MEDIAN]!;
  let z: number;
  if (x < first) {
    const scale = (median - first) / -Z[0]!;
    z = scale > 0 ? Z[0]! + (x - first) / scale : Number.NEGATIVE_INFINITY; // no spread: all mass above
  } else if (x >= last) {
    const scale = (last - median) / Z[n - 1]!;
    z = scale > 0 ? Z[n - 1]! + (x - last) / scale : Number.POSITIVE_INFINITY;
  } else {
    let k = 0;
    while (logQuantiles[k + 1]! <= x) k++;
    const lo = logQuantiles[k]!;
    const hi = logQuantiles[k + 1]!;
    z = Z[k]! + ((Z[k + 1]! - Z[k]!) * (x - lo)) / (hi - lo);
  }
  return 1 - normCdf(z);
}

/** The published quantiles (price) as log returns over the baseline, in the order of PUBLIC_QUANTILES. */
export function logQuantilesOf(baseline: number, quantiles: Readonly<Record<string, number>>): number[] {
  return PUBLIC_QUANTILES.map((p) => Math.log(quantiles[quantileKey(p)]! / baseline));
}

const round = (p: number) => Math.round(p * 1e4) / 1e4;

/** The public log quantiles of a forecast from its quantiles of the log return on the 99-level grid. */
export const logQuantilesOfGrid = (grid: ArrayLike<number>): number[] =>
  PUBLIC_QUANTILES.map((p) => grid[GRID_INDEX(p)]!);

/** The ranks of a path's extremes under the forecast's end distribution (what TouchExcursions learns from). */
export function pathRanks(logQ: readonly number[], path: PathExtremes): PathRanks {
  return { up: endAboveProbability(logQ, path.maxLog), down: 1 - endAboveProbability(logQ, path.minLog) };
}

/**
 * P(touch x) (x a log return over the baseline, ≠ 0) given `beyond`, P(end beyond x): learned from past paths
 * when `excursions` holds enough outcomes, else the reflection principle for a driftless continuous log price,
 * P(max ≥ ℓ) = 2 P(end ≥ ℓ). Never below `beyond` (ending beyond the level touches it), capped at 1.
 */
export function touchProbability(
  x: number,
  beyond: number,
  excursions: Pick<TouchExcursions, 'probability'> | undefined,
): { p: number; method: TouchMethod } {
  const empirical = excursions?.probability(beyond, x > 0);
  if (empirical !== undefined) return { p: Math.min(1, Math.max(beyond, empirical)), method: 'empirical' };
  return { p: Math.min(1, 2 * beyond), method: 'reflection' };
}

/** Both probabilities of each level; touch is 1 at the baseline. */
export function levelProbabilities(
  d: { baseline: number; quantiles: Readonly<Record<string, number>> },
  levels: readonly number[],
  excursions?: Pick<TouchExcursions, 'probability'>,
): LevelProbability[] {
  const logQ = logQuantilesOf(d.baseline, d.quantiles);
  const method: TouchMethod = excursions?.probability(0.5, true) === undefined ? 'reflection' : 'empirical';
  return levels.map((level) => {
    const x = Math.log(level / d.baseline);
    const above = endAboveProbability(logQ, x);
    if (x === 0) return { level, endAbove: round(above), touch: 1, touchMethod: method };
    const touch = touchProbability(x, x > 0 ? above : 1 - above, excursions);
    return { level, endAbove: round(above), touch: round(touch.p), touchMethod: touch.method };
  });
}
