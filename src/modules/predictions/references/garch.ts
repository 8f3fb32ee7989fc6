import type { BarSeries } from '../features/series.ts';
import { nelderMead } from './nelder-mead.ts';

const DAY = 24 * 60 * 60_000;
/** Persistence α + β is kept below this: a unit root would make the multi-step variance unbounded. */
const MAX_PERSISTENCE = 0.9999;

export interface GarchParams {
  /** σ²ₜ₊₁ = ω + α r²ₜ + β σ²ₜ, per bar, on log returns. */
  omega: number;
  alpha: number;
  beta: number;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** The unconstrained parameters Nelder–Mead searches, mapped to ω > 0, α ≥ 0, β ≥ 0, α + β < 1 (scaled ω). */
function fromFree(x: ArrayLike<number>): GarchParams {
  const persistence = MAX_PERSISTENCE * logistic(x[0]!);
  const alpha = persistence * logistic(x[1]!);
  return { omega: Math.exp(x[2]!), alpha, beta: persistence - alpha };
}

/** Gaussian negative log-likelihood (up to constants) of returns `r` under p, the recursion started at v0. */
export function garchNegLogLikelihood(r: ArrayLike<number>, p: GarchParams, v0: number): number {
  let h = v0;
  let nll = 0;
  for (let t = 0; t < r.length; t++) {
    const x = r[t]!;
    nll += Math.log(h) + (x * x) / h;
    h = p.omega + p.alpha * x * x + p.beta * h;
  }
  return 0.5 * nll;
}

/**
 * GARCH(1,1) by Gaussian quasi-maximum likelihood on zero-mean returns: Nelder–Mead on transformed
 * parameters (so ω > 0, α, β ≥ 0, α + β < 1 hold everywhere), the returns scaled to unit variance first and
 * the recursion started at their sample variance. Two passes, the second restarted from the first's optimum.
 */
export function fitGarch(r: ArrayLike<number>): GarchParams & { negLogLikelihood: number } {
  let s2 = 0;
  for (let t = 0; t < r.length; t++) s2 += r[t]! * r[t]!;
  s2 = s2 / Math.max(r.length, 1) || 1e-12;
  const scale = 1 / Math.sqrt(s2);
  const x = Float64Array.from(r as ArrayLike<number>, (v) => v * scale);
  const objective = (free: Float64Array) => garchNegLogLikelihood(x, fromFree(free), 1);
  // Start at persistence 0.95 with α = 0.1 of it and the unconditional variance 1.
  let fit = nelderMead(objective, [Math.log(0.95 / 0.0499), Math.log(0.1 / 0.9), Math.log(0.05)], {
    tolerance: 1e-7,
    maxEvaluations: 400,
  });
  fit = nelderMead(objective, fit.x, { step: 0.1, tolerance: 1e-9, maxEvaluations: 300 });
  const p = fromFree(fit.x);
  return { omega: p.omega * s2, alpha: p.alpha, beta: p.beta, negLogLikelihood: fit.value };
}

/**
 * Variance of the sum of the next k bar returns given the next bar's conditional variance h: the GARCH
 * forecasts E[σ²ₜ₊ⱼ] = v̄ + pʲ⁻¹ (h − v̄), v̄ = ω / (1 − p), p = α + β, summed over j = 1 … k.
 */
export function garchHorizonVariance(p: GarchParams, h: number, k: number): number {
  const persistence = p.alpha + p.beta;
  if (!(persistence < 1)) return k * h;
  const vbar = p.omega / (1 - persistence);
  return k * vbar + ((h - vbar) * (1 - persistence ** k)) / (1 - persistence);
}

export interface GarchReferenceOptions {
  /** Trailing window of bars the parameters are fitted on, in ms (default 14 days). */
  windowMs?: number;
  /** Time between refits, in ms (default 1 day). */
  refitMs?: number;
  /** History needed before the first fit, in ms (default 1 day). */
  minHistoryMs?: number;
}

/**
 * Walk-forward GARCH(1,1) σ of one series. `sigma(i, horizonMs)` reads bars 0..i only: the conditional
 * variance runs bar by bar, and the parameters are refitted on a schedule on the trailing window of returns
 * up to the bar where the refit falls due. Undefined before the first fit.
 */
export class GarchReference {
  params: GarchParams | undefined;
  fits = 0;
  /** Conditional variance of the return of the bar after the cursor. */
  private h = Number.NaN;
  /** Close time of the last bar the recursion ran through: a time, since a live series drops its oldest bars. */
  private cursorTime = Number.NEGATIVE_INFINITY;
  private lastFit = Number.NEGATIVE_INFINITY;
  private readonly windowMs: number;
  private readonly refitMs: number;
  private readonly minHistoryMs: number;

  constructor(
    readonly series: BarSeries,
    options: GarchReferenceOptions = {},
  ) {
    this.windowMs = options.windowMs ?? 14 * DAY;
    this.refitMs = options.refitMs ?? DAY;
    this.minHistoryMs = options.minHistoryMs ?? DAY;
  }

  private ret(k: number): number {
    return this.series.logClose[k]! - this.series.logClose[k - 1]!;
  }

  /** Runs the variance recursion through bar i, refitting where due. Bars must be visited in order. */
  private advance(i: number): void {
    const s = this.series;
    for (let k = Math.max(1, s.indexAt(this.cursorTime) + 1); k <= i; k++) {
      const t = s.closeTime[k]!;
      if (t - this.lastFit >= this.refitMs && t - s.closeTime[0]! >= this.minHistoryMs) {
        this.refit(k);
      } else if (this.params) {
        const r = this.ret(k);
        this.h = this.params.omega + this.params.alpha * r * r + this.params.beta * this.h;
      }
      this.cursorTime = s.closeTime[k]!;
    }
  }

  /** Fits on the returns of the window ending at bar k and reruns the recursion over it to bar k. */
  private refit(k: number): void {
    const start = Math.max(1, this.series.back(k, this.windowMs) + 1);
    const r = new Float64Array(k - start + 1);
    for (let j = start; j <= k; j++) r[j - start] = this.ret(j);
    this.lastFit = this.series.closeTime[k]!;
    if (r.length < 50) return;
    const p = fitGarch(r);
    this.params = { omega: p.omega, alpha: p.alpha, beta: p.beta };
    this.fits++;
    let v = 0;
    for (const x of r) v += x * x;
    let h = v / r.length;
    for (const x of r) h = p.omega + p.alpha * x * x + p.beta * h;
    this.h = h;
  }

  /** σ of the log return over `horizonMs` after bar i (the horizon in whole bars, at least one). */
  sigma(i: number, horizonMs: number): number | undefined {
    if (this.series.closeTime[i]! < this.cursorTime)
      throw new Error(`GARCH reference already at ${this.cursorTime}, asked for bar ${i}`);
    this.advance(i);
    if (!this.params || !(this.h > 0)) return undefined;
    const k = Math.max(1, Math.round(horizonMs / this.series.barMs));
    return Math.sqrt(garchHorizonVariance(this.params, this.h, k));
  }
}
