import { normQuantile, sortedQuantile } from '../math.ts';
import { RollingWindow, float32 } from './rolling-window.ts';

/** The quantile grid every forecaster reports: 0.01, 0.02, …, 0.99 (CRPS is integrated on it). */
export const GRID: Float64Array = Float64Array.from({ length: 99 }, (_, k) => (k + 1) / 100);
export const GRID_INDEX = (level: number): number => Math.round(level * 100) - 1;
const PAIRS = 49;
const MEDIAN = 49;
const GAUSS: Float64Array = GRID.map((p) => normQuantile(p));

/**
 * Adaptive conformal prediction intervals (Gibbs & Candès 2021), one per central coverage level.
 * Pair j (j = 0…48) is the interval [q_{τ_j}, q_{1−τ_j}] with τ_j = (j+1)/100 and nominal coverage
 * c_j = 1 − 2τ_j. It is μ ± σ·Ẑ(b_j), Ẑ the empirical quantile of the absolute standardized residuals
 * |y − μ|/σ over a rolling window (split-conformal score), and b_j the coverage level actually used,
 * adapted after each scored outcome:
 *   b_j ← b_j + γ·(c_j − 1{|y − μ| ≤ σ·Ẑ(b_j)}),
 * so an interval that misses too often widens and one that is too wide narrows: long-run coverage tracks
 * c_j even when the residual distribution drifts (Gibbs & Candès' guarantee holds for any sequence).
 * Symmetric by design: the 0.50 quantile is μ itself. One-sided adaptation was tried first and rejected:
 * with overlapping horizons its levels chased the last days' trend and, measured, hurt both hit rate
 * and CRPS (docs/adr/0001-conformal-calibration.md). Until `minCount` residuals exist it answers Gaussian quantiles.
 * The levels adapt on every outcome (`adapt`); the residual window may be fed a thinned subset (`record`).
 */
export class ConformalQuantiles {
  /** Standardized residuals in single precision (4 bytes, 8 with the sorted copy): 7 digits are plenty. */
  private readonly window: RollingWindow<Float32Array>;
  private sinceSort = 0;
  private sorted: Float32Array = new Float32Array(0);
  /** Adapted coverage level of each central interval, pair j ↔ nominal 1 − 2(j+1)/100. */
  readonly levels: Float64Array = Float64Array.from({ length: PAIRS }, (_, j) => 1 - (2 * (j + 1)) / 100);
  private readonly z = new Float64Array(PAIRS);

  constructor(
    readonly windowSize = 3000,
    readonly gamma = 0.003,
    readonly minCount = 200,
    readonly resortEvery = 50,
  ) {
    this.window = new RollingWindow(windowSize, float32);
  }

  /** Bytes of the residual window and its sorted copy as held now (they grow with the outcomes seen). */
  get heldBytes(): number {
    return this.window.heldBytes + this.sorted.byteLength;
  }

  /** Bytes of the residual window and its sorted copy once full: 8 a residual. */
  get maxWindowBytes(): number {
    return 2 * this.window.maxBytes;
  }

  get warm(): boolean {
    return this.window.size >= this.minCount;
  }

  /** Fills `out` (length 99, ascending) with forecast quantiles of the log return. */
  quantiles(mu: number, sigma: number, out: Float64Array): Float64Array {
    if (!this.warm) {
      for (let k = 0; k < GRID.length; k++) out[k] = mu + sigma * GAUSS[k]!;
      out[MEDIAN] = mu;
      return out;
    }
    const s = this.sorted;
    const hi = s[s.length - 1]!;
    const z = this.z;
    for (let j = 0; j < PAIRS; j++) {
      const b = this.levels[j]!;
      // Beyond the window's largest residual, extend linearly; at or below 0 the interval is empty.
      z[j] = b >= 1 ? hi * (1 + (b - 1) * 4) : b <= 0 ? 0 : sortedQuantile(s, b);
    }
    // Rearrangement: nested intervals must widen with coverage.
    for (let j = 1; j < PAIRS; j++) if (z[j]! > z[j - 1]!) z[j] = z[j - 1]!;
    for (let j = 0; j < PAIRS; j++) {
      out[j] = mu - sigma * z[j]!;
      out[GRID.length - 1 - j] = mu + sigma * z[j]!;
    }
    out[MEDIAN] = mu;
    return out;
  }

  /**
   * Records the outcome of a forecast whose quantiles were `q` (as returned by `quantiles`, then moved by
   * `shift` when the published median was moved to agree with the direction call): `adapt`, then `record`.
   */
  update(y: number, mu: number, sigma: number, q: Float64Array, shift = 0): void {
    this.adapt(y, q, shift);
    this.record(y, mu, sigma);
  }

  /** The ACI step of every level from one outcome and the quantiles `q` it was forecast with (see `update`). */
  adapt(y: number, q: Float64Array, shift = 0): void {
    const ys = y + shift;
    for (let j = 0; j < PAIRS; j++) {
      const covered = q[j]! <= ys && ys <= q[GRID.length - 1 - j]! ? 1 : 0;
      const nominal = 1 - (2 * (j + 1)) / 100;
      const b = this.levels[j]! + this.gamma * (nominal - covered);
      this.levels[j] = Math.max(-0.1, Math.min(1.2, b));
    }
  }

  /** Adds the outcome's standardized residual to the window (re-sorted every `resortEvery` residuals). */
  record(y: number, mu: number, sigma: number): void {
    if (!(sigma > 0)) return;
    this.window.add(Math.abs(y - mu) / sigma);
    if (++this.sinceSort >= this.resortEvery || this.window.size === this.minCount) {
      this.sinceSort = 0;
      this.sorted = this.window.sorted();
    }
  }
}
