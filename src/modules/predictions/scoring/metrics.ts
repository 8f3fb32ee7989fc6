import { GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { normCdf, normPdf, normQuantile } from '../math.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../types.ts';

/** Pinball (quantile) loss of quantile q at level tau for outcome y. */
export function pinball(q: number, tau: number, y: number): number {
  return y >= q ? tau * (y - q) : (1 - tau) * (q - y);
}

/**
 * CRPS from the 99-level quantile grid: CRPS = 2∫₀¹ pinball_τ dτ, integrated with the rectangle rule on
 * τ = 0.01 … 0.99. Every forecaster in a report (the Gaussian baselines included) is scored with this same
 * rule so skills compare like with like; for a Gaussian it is within ~1 % of the closed form.
 */
export function crpsFromGrid(q: ArrayLike<number>, y: number): number {
  let s = 0;
  for (let k = 0; k < GRID.length; k++) s += pinball(q[k]!, GRID[k]!, y);
  return (2 * s) / 100;
}

/** Closed-form CRPS of N(mu, sigma²) (Gneiting & Raftery 2007). */
export function crpsGaussian(mu: number, sigma: number, y: number): number {
  const z = (y - mu) / sigma;
  return sigma * (z * (2 * normCdf(z) - 1) + 2 * normPdf(z) - 1 / Math.sqrt(Math.PI));
}

const GAUSS_GRID = GRID.map((p) => normQuantile(p));
export function gaussianGrid(mu: number, sigma: number, out = new Float64Array(GRID.length)): Float64Array {
  for (let k = 0; k < GRID.length; k++) out[k] = mu + sigma * GAUSS_GRID[k]!;
  return out;
}

/** Newey–West (Bartlett) long-run variance of a series around its mean. */
export function neweyWestVariance(x: ArrayLike<number>, lag: number): number {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i]! - mean) ** 2;
  v /= n;
  for (let l = 1; l <= Math.min(lag, n - 1); l++) {
    let c = 0;
    for (let i = l; i < n; i++) c += (x[i]! - mean) * (x[i - l]! - mean);
    v += 2 * (1 - l / (lag + 1)) * (c / n);
  }
  return Math.max(v, 0);
}

export interface DieboldMariano {
  /** Mean of |e_model| − |e_randomWalk| (negative: the model's absolute error is smaller). */
  meanDifference: number;
  statistic: number;
  pValue: number;
  lag: number;
}

/** Diebold–Mariano test of equal absolute error, HAC variance with lag ≥ overlap − 1 (overlapping horizons). */
export function dieboldMariano(d: ArrayLike<number>, overlap: number): DieboldMariano {
  const n = d.length;
  const lag = Math.max(overlap - 1, Math.floor(4 * (n / 100) ** (2 / 9)));
  let mean = 0;
  for (let i = 0; i < n; i++) mean += d[i]!;
  mean /= Math.max(n, 1);
  const v = n > 1 ? neweyWestVariance(d, lag) : 0;
  const statistic = v > 0 ? mean / Math.sqrt(v / n) : 0;
  return { meanDifference: mean, statistic, pValue: 2 * (1 - normCdf(Math.abs(statistic))), lag };
}

export interface CalibrationBin {
  lower: number;
  upper: number;
  count: number;
  meanConfidence: number | null;
  hitRate: number | null;
}

/** Ten equal-width bins of confidence and the expected calibration error over them. */
export function calibrationBins(
  conf: ArrayLike<number>,
  hit: ArrayLike<number>,
): { bins: CalibrationBin[]; ece: number } {
  const n = conf.length;
  const count = new Array<number>(10).fill(0);
  const sumC = new Array<number>(10).fill(0);
  const sumH = new Array<number>(10).fill(0);
  for (let i = 0; i < n; i++) {
    const b = Math.min(9, Math.max(0, Math.floor(conf[i]! * 10)));
    count[b]!++;
    sumC[b]! += conf[i]!;
    sumH[b]! += hit[i]!;
  }
  let ece = 0;
  const bins: CalibrationBin[] = [];
  for (let b = 0; b < 10; b++) {
    const c = count[b]!;
    bins.push({
      lower: b / 10,
      upper: (b + 1) / 10,
      count: c,
      meanConfidence: c ? sumC[b]! / c : null,
      hitRate: c ? sumH[b]! / c : null,
    });
    if (c) ece += (c / n) * Math.abs(sumC[b]! / c - sumH[b]! / c);
  }
  return { bins, ece };
}

/** One forecaster's scored outcomes, accumulated in time order. */
export class ScoreAccumulator {
  readonly hit: number[] = [];
  readonly conf: number[] = [];
  readonly crps: number[] = [];
  readonly absErr: number[] = [];
  readonly cover80: number[] = [];
  readonly cover90: number[] = [];
  readonly pinballSum = new Float64Array(PUBLIC_QUANTILES.length);

  /** q: the 99-level grid quantiles of the log return; median: its 0.50 quantile; y: realized log return. */
  add(q: ArrayLike<number>, median: number, confidence: number, y: number): void {
    this.hit.push((median >= 0 ? y > 0 : y < 0) ? 1 : 0);
    this.conf.push(confidence);
    this.crps.push(crpsFromGrid(q, y));
    this.absErr.push(Math.abs(y - median));
    this.cover80.push(q[GRID_INDEX(0.1)]! <= y && y <= q[GRID_INDEX(0.9)]! ? 1 : 0);
    this.cover90.push(q[GRID_INDEX(0.05)]! <= y && y <= q[GRID_INDEX(0.95)]! ? 1 : 0);
    PUBLIC_QUANTILES.forEach((tau, k) => {
      this.pinballSum[k]! += pinball(q[GRID_INDEX(tau)]!, tau, y);
    });
  }

  get count(): number {
    return this.hit.length;
  }
}

const mean = (x: readonly number[]): number =>
  x.length ? x.reduce((a, b) => a + b, 0) / x.length : Number.NaN;

export interface ForecasterMetrics {
  count: number;
  hitRate: number;
  /** Standard error of the hit rate, HAC (Newey–West) because overlapping horizons make outcomes correlated. */
  hitRateSE: number;
  brier: number;
  /** 1 − Brier / 0.25 (the coin flip's Brier score). */
  brierSkill: number;
  ece: number;
  calibration: CalibrationBin[];
  crps: number;
  crpsSkillVsEwma: number;
  crpsSkillVsRandomWalk: number;
  pinball: Record<string, number>;
  coverage80: number;
  coverage90: number;
  meanAbsError: number;
  dieboldMarianoVsRandomWalk: DieboldMariano;
}

export function summarize(
  a: ScoreAccumulator,
  refs: { ewma: ScoreAccumulator; randomWalk: ScoreAccumulator },
  overlap: number,
): ForecasterMetrics {
  const n = a.count;
  const hitRate = mean(a.hit);
  const hitRateSE = n > 1 ? Math.sqrt(neweyWestVariance(a.hit, Math.max(overlap - 1, 1)) / n) : Number.NaN;
  let brier = 0;
  for (let i = 0; i < n; i++) brier += (a.conf[i]! - a.hit[i]!) ** 2;
  brier /= n;
  const { bins, ece } = calibrationBins(a.conf, a.hit);
  const crps = mean(a.crps);
  const d = a.absErr.map((e, i) => e - refs.randomWalk.absErr[i]!);
  const pin: Record<string, number> = {};
  PUBLIC_QUANTILES.forEach((tau, k) => {
    pin[quantileKey(tau)] = a.pinballSum[k]! / n;
  });
  return {
    count: n,
    hitRate,
    hitRateSE,
    brier,
    brierSkill: 1 - brier / 0.25,
    ece,
    calibration: bins,
    crps,
    crpsSkillVsEwma: 1 - crps / mean(refs.ewma.crps),
    crpsSkillVsRandomWalk: 1 - crps / mean(refs.randomWalk.crps),
    pinball: pin,
    coverage80: mean(a.cover80),
    coverage90: mean(a.cover90),
    meanAbsError: mean(a.absErr),
    dieboldMarianoVsRandomWalk: dieboldMariano(d, overlap),
  };
}
