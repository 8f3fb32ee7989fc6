import { solveSpd } from '../math.ts';
import type { BarSeries } from '../features/series.ts';

const DAY = 24 * 60 * 60_000;
/** Windows of the components, in horizons: Corsi's day, week (5) and month (22), with the horizon as the day. */
export const HAR_WINDOWS = [1, 5, 22] as const;

export interface HarRvCoefficients {
  /** v̂ = b0 + b1·RV₁ + b2·RV₅ + b3·RV₂₂ (realized variance per ms over the window of 1, 5, 22 horizons). */
  b: Float64Array;
  samples: number;
}

/**
 * OLS of y on [1, x₁ … x_m]. Inputs are scaled by the mean of y first (variances per ms are ~1e-11), and a
 * ridge of 1e-9 of the diagonal keeps the solve defined when components are collinear.
 */
export function fitOls(x: readonly ArrayLike<number>[], y: ArrayLike<number>): Float64Array {
  const m = x[0]?.length ?? 0;
  const n = m + 1;
  let scale = 0;
  for (let r = 0; r < y.length; r++) scale += y[r]!;
  scale = y.length && scale > 0 ? y.length / scale : 1;
  const a = new Float64Array(n * n);
  const c = new Float64Array(n);
  const row = new Float64Array(n);
  for (let r = 0; r < y.length; r++) {
    row[0] = 1;
    for (let k = 0; k < m; k++) row[k + 1] = x[r]![k]! * scale;
    const yr = y[r]! * scale;
    for (let i = 0; i < n; i++) {
      c[i] = c[i]! + row[i]! * yr;
      for (let j = 0; j < n; j++) a[i * n + j] = a[i * n + j]! + row[i]! * row[j]!;
    }
  }
  for (let i = 0; i < n; i++) a[i * n + i] = a[i * n + i]! * (1 + 1e-9) + 1e-12;
  const b = solveSpd(a, c, n);
  b[0] = b[0]! / scale;
  return b;
}

/**
 * The HAR components at bar i: realized variance per ms over 1, 5 and 22 horizons back, a window longer than
 * the history cut to it (so a 6h model has components after a day, not 5.5); undefined under 2 returns.
 */
export function harComponents(s: BarSeries, i: number, horizonMs: number): Float64Array | undefined {
  const out = new Float64Array(HAR_WINDOWS.length);
  const history = s.closeTime[i]! - s.closeTime[0]!;
  for (let k = 0; k < HAR_WINDOWS.length; k++) {
    const rv = s.rv(i, Math.min(HAR_WINDOWS[k]! * horizonMs, history));
    if (rv === undefined) return undefined;
    out[k] = rv;
  }
  return out;
}

export interface HarRvOptions {
  /** Trailing window of training rows, in ms (default 30 days). */
  trainMs?: number;
  /** Time between refits, in ms (default 1 day). */
  refitMs?: number;
  /** Training rows needed before the first fit (default 200). */
  minSamples?: number;
  /** Most training rows per fit; rows are thinned evenly beyond it (default 20 000). */
  maxSamples?: number;
  /** History needed before the first fit is tried, in ms (default 0). */
  minHistoryMs?: number;
}

/**
 * Walk-forward HAR-RV σ of one series at one horizon: realized variance over the next horizon regressed by
 * OLS on the realized variance over the last 1, 5 and 22 horizons, refitted on a schedule on the rows whose
 * outcome had been realized by the refit (their horizon ended at or before it). `sigma(i)` reads bars
 * 0..i only. A fitted variance below a tenth of the 22-horizon component is floored there (levels OLS can
 * go negative after a spike).
 */
export class HarRvReference {
  coefficients: HarRvCoefficients | undefined;
  fits = 0;
  private lastFit = Number.NEGATIVE_INFINITY;
  private readonly trainMs: number;
  private readonly refitMs: number;
  private readonly minSamples: number;
  private readonly maxSamples: number;
  private readonly minHistoryMs: number;

  constructor(
    readonly series: BarSeries,
    readonly horizonMs: number,
    options: HarRvOptions = {},
  ) {
    this.trainMs = options.trainMs ?? 30 * DAY;
    this.refitMs = options.refitMs ?? DAY;
    this.minSamples = options.minSamples ?? 200;
    this.maxSamples = options.maxSamples ?? 20_000;
    this.minHistoryMs = options.minHistoryMs ?? 0;
  }

  private refit(i: number): void {
    const s = this.series;
    const now = s.closeTime[i]!;
    this.lastFit = now;
    const first = Math.max(0, s.back(i, this.trainMs));
    const last = s.back(i, this.horizonMs);
    if (last <= first) return;
    const stride = Math.max(1, Math.ceil((last - first + 1) / this.maxSamples));
    const xs: Float64Array[] = [];
    const ys: number[] = [];
    for (let j = first; j <= last; j += stride) {
      const x = harComponents(s, j, this.horizonMs);
      const t = s.closeTime[j]!;
      const y = s.rvBetween(i, t, t + this.horizonMs);
      if (!x || y === undefined) continue;
      xs.push(x);
      ys.push(y);
    }
    if (ys.length < this.minSamples) return;
    this.coefficients = { b: fitOls(xs, ys), samples: ys.length };
    this.fits++;
  }

  /** Forecast variance per ms over the next horizon after bar i; undefined until the first fit. */
  variance(i: number): number | undefined {
    // Until the first fit succeeds it is retried hourly.
    const every = this.coefficients ? this.refitMs : Math.min(this.refitMs, 60 * 60_000);
    const t = this.series.closeTime[i]!;
    if (t - this.lastFit >= every && t - this.series.closeTime[0]! >= this.minHistoryMs) this.refit(i);
    const x = harComponents(this.series, i, this.horizonMs);
    if (!this.coefficients || !x) return undefined;
    const b = this.coefficients.b;
    let v = b[0]!;
    for (let k = 0; k < x.length; k++) v += b[k + 1]! * x[k]!;
    return Math.max(v, 0.1 * x[x.length - 1]!);
  }

  sigma(i: number): number | undefined {
    const v = this.variance(i);
    return v !== undefined && v > 0 ? Math.sqrt(v * this.horizonMs) : undefined;
  }
}
