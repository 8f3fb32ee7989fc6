import { normQuantile } from '../math.ts';
import {
  ascendingOrder,
  fitStep,
  type IsotonicStep,
  NOT_FITTED,
  predictStep,
  stepBytes,
} from './isotonic.ts';
import { RollingWindow, float32, int8 } from './rolling-window.ts';

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
 *
 * Both regressions read one window of (score in single precision, sign of the outcome): 5 bytes an outcome. They are fitted
 * exactly as two `IsotonicCalibrator`s fed (s, y > 0) and (−s, y < 0) would be — same cadence, same order
 * of tied scores — which held a copy each of the scores and of a hit flag (18 bytes an outcome).
 */
export class DirectionCalibrator {
  private readonly scores: RollingWindow<Float32Array>;
  /** +1: the price ended above the baseline, −1: below, 0: unchanged. */
  private readonly signs: RollingWindow<Int8Array>;
  private sinceFit = 0;
  private up: IsotonicStep = NOT_FITTED;
  private down: IsotonicStep = NOT_FITTED;

  constructor(
    readonly window: number,
    readonly refitEvery: number,
    readonly minCount: number,
    readonly prior: number,
  ) {
    this.scores = new RollingWindow(window, float32);
    this.signs = new RollingWindow(window, int8);
  }

  /** Bytes of the window and the fitted step functions as held now. */
  get heldBytes(): number {
    return this.windowBytes + stepBytes(this.up) + stepBytes(this.down);
  }

  /** Bytes of the window as held now (at most `maxWindowBytes`). */
  get windowBytes(): number {
    return this.scores.heldBytes + this.signs.heldBytes;
  }

  /** Bytes of the window once full: 5 an outcome. */
  get maxWindowBytes(): number {
    return this.scores.maxBytes + this.signs.maxBytes;
  }

  get fitted(): boolean {
    return this.up.edges.length > 0;
  }

  call(score: number): DirectionCall {
    const up = predictStep(this.up, score);
    const down = predictStep(this.down, -score);
    if (up >= down) {
      if (up >= 0.5) return { side: 1, confidence: up, up, down, floored: false };
    } else if (down > 0.5) return { side: -1, confidence: down, up, down, floored: false };
    return { side: 1, confidence: 0.5, up, down, floored: true };
  }

  add(score: number, y: number): void {
    this.scores.add(score);
    this.signs.add(y > 0 ? 1 : y < 0 ? -1 : 0);
    if (++this.sinceFit >= this.refitEvery && this.scores.size >= this.minCount) this.fit();
  }

  private fit(): void {
    this.sinceFit = 0;
    const { scores, signs } = this;
    const n = scores.size;
    const up = ascendingOrder(n, (k) => scores.at(k));
    this.up = fitStep(
      up.map((k) => scores.at(k)),
      up.map((k) => (signs.at(k) > 0 ? 1 : 0)),
      this.prior,
      COIN_FLIP,
    );
    // Its own stable sort on −s, not the reverse of the one above: tied scores keep their window order.
    const down = ascendingOrder(n, (k) => -scores.at(k));
    this.down = fitStep(
      down.map((k) => -scores.at(k)),
      down.map((k) => (signs.at(k) < 0 ? 1 : 0)),
      this.prior,
      COIN_FLIP,
    );
  }
}

/** Blocks are shrunk toward the coin flip, not toward the window's up-share (a trend bet). */
const COIN_FLIP = 0.5;

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
