import { normQuantile } from '../math.ts';
import { IsotonicCalibrator } from './isotonic.ts';

/** The published side of a forecast and the calibrated probability that the realized return lands on it. */
export interface DirectionCall {
  /** +1: the price ends strictly above the baseline; −1: strictly below. */
  side: 1 | -1;
  /** Calibrated P(the realized return is strictly on `side`), at least 0.5. */
  confidence: number;
  /** Calibrated P(y > 0) and P(y < 0) (they sum to at most 1: an unchanged price is neither). */
  up: number;
  down: number;
  /** Neither side is rated above 0.5: the forecast is flat and `confidence` is the floor 0.5. */
  floored: boolean;
}

/**
 * Calibrated direction probabilities from the signed score s = μ/σ: two isotonic regressions fitted
 * walk-forward on scored outcomes, P(y > 0) non-decreasing in s and P(y < 0) non-increasing. The published
 * side is the likelier one, so the confidence published with it is ≥ 0.5 by construction, and the median
 * is moved to agree with it (`consistentMedian`). A flat forecast counts as "up" (the hit rule: the
 * realized price strictly on the predicted side; docs/forecasting.md, "Datapoint"), so "flat" is only
 * published when the up side is the one chosen.
 */
export class DirectionCalibrator {
  private readonly upCal: IsotonicCalibrator;
  private readonly downCal: IsotonicCalibrator;

  constructor(window: number, refitEvery: number, minCount: number, prior: number) {
    this.upCal = new IsotonicCalibrator(window, refitEvery, minCount, prior, 0.5);
    this.downCal = new IsotonicCalibrator(window, refitEvery, minCount, prior, 0.5);
  }

  get heldBytes(): number {
    return this.upCal.heldBytes + this.downCal.heldBytes;
  }

  get fitted(): boolean {
    return this.upCal.fitted;
  }

  call(score: number): DirectionCall {
    const up = this.upCal.predict(score);
    const down = this.downCal.predict(-score);
    if (up >= down) {
      if (up >= 0.5) return { side: 1, confidence: up, up, down, floored: false };
    } else if (down > 0.5) return { side: -1, confidence: down, up, down, floored: false };
    return { side: 1, confidence: 0.5, up, down, floored: true };
  }

  add(score: number, y: number): void {
    this.upCal.add(score, y > 0);
    this.downCal.add(-score, y < 0);
  }
}

/**
 * The median (log return) published with a call: the model's own median when it already lies on the called
 * side (≥ 0 counts as up), otherwise the location at which a distribution of spread σ puts the called
 * probability on that side — just across the baseline, by σ·Φ⁻¹(confidence). With no side rated
 * above 0.5 (`floored`) the forecast is flat: the baseline itself.
 */
export function consistentMedian(median: number, sigma: number, call: DirectionCall): number {
  if (call.floored) return 0;
  // Strictly below the baseline even after the published prices are rounded to 10 significant digits.
  if (call.side === -1 && median < 0) return Math.min(median, -1e-8);
  if (call.side === 1 && median >= 0) return median;
  const shift = sigma * normQuantile(Math.min(call.confidence, 0.999));
  if (call.side === 1) return Math.max(0, shift);
  return -Math.max(shift, 1e-8);
}
