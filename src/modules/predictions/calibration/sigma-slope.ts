/**
 * Conditional calibration of the predictive σ: the realized scale may grow more slowly (or faster) with σ
 * than proportionally — a σ that overreacts gives intervals too wide when σ is high and too narrow when it
 * is low even when they cover 80 % on average. With x = log(σ / level), level a slow σ (realized over the
 * last 7 days), it learns the slope β of log|y − μ| on x (exponentially weighted least squares over scored
 * outcomes, with intercept) and answers σ_eff = σ · (σ / level)^(β − 1): a shrinkage of σ toward its
 * long-run level when β < 1. The overall level is left to the conformal layer downstream. β is shrunk
 * toward 1 (no correction) with a prior in independent outcomes, and clipped to [0.3, 1.3].
 */
export class SigmaSlope {
  private sw = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private sxy = 0;

  constructor(
    /** Decay per scored forecast: 1 − step / memory. */
    readonly decay: number,
    /** Prior weight on β = 1, in scored forecasts (independent outcomes × overlap). */
    readonly prior: number,
    /** Off: always β = 1 (the unconditional layer), for comparisons. */
    readonly enabled = true,
  ) {}

  get beta(): number {
    if (!this.enabled || this.sw < 2) return 1;
    const mx = this.sx / this.sw;
    const vxx = this.sxx - this.sw * mx * mx;
    const cxy = this.sxy - this.sx * (this.sy / this.sw);
    // Posterior mean with prior β = 1 carrying `prior` forecasts' worth of the typical spread of log σ.
    const spread = vxx / this.sw;
    const b = (cxy + this.prior * spread) / (vxx + this.prior * spread);
    return Math.min(1.3, Math.max(0.3, Number.isFinite(b) ? b : 1));
  }

  /** σ moved toward `level` (its long-run value) by the learned slope: σ · (σ / level)^(β − 1). */
  adjust(sigma: number, level: number): number {
    if (!this.enabled || this.sw < 2 || !(sigma > 0) || !(level > 0)) return sigma;
    return sigma * Math.exp((this.beta - 1) * Math.log(sigma / level));
  }

  /** Learns from a scored forecast: log(σ / level) when it was made, and its residual y − μ. */
  update(deviation: number, residual: number): void {
    if (!Number.isFinite(deviation) || !Number.isFinite(residual)) return;
    const a = Math.abs(residual);
    if (!(a > 0)) return;
    const x = deviation;
    const y = Math.log(a);
    const d = this.decay;
    this.sw = d * this.sw + 1;
    this.sx = d * this.sx + x;
    this.sy = d * this.sy + y;
    this.sxx = d * this.sxx + x * x;
    this.sxy = d * this.sxy + x * y;
  }
}
