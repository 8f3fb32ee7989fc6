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
  /** P(the price reaches the level at some time before the horizon), reflection principle. */
  touch: number;
}

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

/**
 * Both probabilities of each level. Touch: for a driftless continuous log price, P(max ≥ ℓ) = 2 P(end ≥ ℓ)
 * (reflection principle); applied to the calibrated end distribution, capped at 1, and 1 at the baseline.
 */
export function levelProbabilities(
  d: { baseline: number; quantiles: Readonly<Record<string, number>> },
  levels: readonly number[],
): LevelProbability[] {
  const logQ = logQuantilesOf(d.baseline, d.quantiles);
  return levels.map((level) => {
    const x = Math.log(level / d.baseline);
    const above = endAboveProbability(logQ, x);
    const beyond = x > 0 ? above : x < 0 ? 1 - above : 0.5;
    return { level, endAbove: round(above), touch: round(Math.min(1, 2 * beyond)) };
  });
}
