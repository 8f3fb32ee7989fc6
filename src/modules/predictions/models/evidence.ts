/**
 * How much of a forecaster's mean its own walk-forward record supports: a shrinkage factor in [0, 1] that
 * multiplies the mean, learned from scored outcomes only. In units of the predictive σ, the out-of-sample
 * regression of the realized return y on the forecast m (no intercept) gives b̂ = Σ m·y / Σ m²; overlapping
 * horizons make neighbouring outcomes near-duplicates, so its variance is inflated by the overlap:
 * se² = overlap · s² / Σ m², s² the mean squared residual. The factor is b̂ clipped to [0, 1], times the
 * positive-part shrinkage max(0, 1 − κ/t²) with t = b̂ / se: with no evidence (t² ≤ κ) the mean is dropped
 * and the forecast is the zero-mean one; with strong evidence it passes almost whole. Sums decay with a
 * memory in time so a member that stops working loses its pass.
 */
export class EvidenceShrinkage {
  private sxy = 0;
  private sxx = 0;
  private syy = 0;
  private n = 0;

  constructor(
    /** Decay per scored forecast: 1 − step / memory. */
    readonly decay: number,
    /** Horizon / step: how many scored forecasts one independent outcome spans. */
    readonly overlap: number,
    /** Threshold of the positive-part shrinkage, on t² (4: a mean passes only past |t| = 2). */
    readonly kappa: number,
  ) {}

  /** Records one scored forecast: its mean m and the realized y, both divided by the predictive σ. */
  update(m: number, y: number): void {
    if (!Number.isFinite(m) || !Number.isFinite(y)) return;
    const d = this.decay;
    this.sxy = d * this.sxy + m * y;
    this.sxx = d * this.sxx + m * m;
    this.syy = d * this.syy + y * y;
    this.n = d * this.n + 1;
  }

  /** b̂: the regression slope of the realized return on the forecast, both in units of σ (0 before any). */
  get slope(): number {
    return this.sxx > 0 ? this.sxy / this.sxx : 0;
  }

  /** The t statistic of the forecast's usefulness (0 until it has forecast something non-zero). */
  get t(): number {
    if (!(this.sxx > 0) || !(this.n > 0)) return 0;
    const b = this.sxy / this.sxx;
    const s2 = Math.max((this.syy - 2 * b * this.sxy + b * b * this.sxx) / this.n, 1e-12);
    return b / Math.sqrt((this.overlap * s2) / this.sxx);
  }

  get factor(): number {
    if (!(this.sxx > 0)) return 0;
    const b = Math.min(1, Math.max(0, this.sxy / this.sxx));
    const t = this.t;
    return b * Math.max(0, 1 - this.kappa / (t * t));
  }
}
