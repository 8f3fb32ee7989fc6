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
function neweyWestVariance(x: ArrayLike<number>, lag: number): number {
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
  /** Mean loss difference (negative: the first forecaster's loss is smaller). */
  meanDifference: number;
  statistic: number;
  pValue: number;
  lag: number;
}

/** Diebold–Mariano test of equal loss (d = loss difference), HAC variance with lag ≥ overlap − 1 (overlapping horizons). */
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

/**
 * Indices of `values` sorted ascending and cut into `k` groups of (nearly) equal count, the i-th group holding
 * positions ⌊i·n/k⌋ … ⌊(i+1)·n/k⌋ − 1 of the order (ties keep their index order); with n < k some are empty.
 * The one grouping behind equal-mass calibration bins and σ terciles, here and in the calibrated world.
 */
export function equalCountGroups(values: ArrayLike<number>, k: number): number[][] {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const out: number[][] = [];
  for (let b = 0; b < k; b++) {
    const lo = Math.floor((b * n) / k);
    const hi = Math.floor(((b + 1) * n) / k);
    out.push(order.slice(lo, hi));
  }
  return out;
}

/** Calibration bins over given groups of forecasts (sorted by confidence) and the ECE over them. */
export function calibrationOverGroups(
  groups: readonly (readonly number[])[],
  conf: ArrayLike<number>,
  hit: ArrayLike<number>,
): { bins: CalibrationBin[]; ece: number } {
  const n = conf.length;
  const bins: CalibrationBin[] = [];
  let ece = 0;
  for (const g of groups) {
    if (g.length === 0) continue;
    let sc = 0;
    let sh = 0;
    for (const i of g) {
      sc += conf[i]!;
      sh += hit[i]!;
    }
    const c = g.length;
    bins.push({
      lower: conf[g[0]!]!,
      upper: conf[g[c - 1]!]!,
      count: c,
      meanConfidence: sc / c,
      hitRate: sh / c,
    });
    ece += (c / n) * Math.abs(sc / c - sh / c);
  }
  return { bins, ece };
}

/** Equal-mass bins: the forecasts sorted by confidence, cut into `k` groups of (nearly) equal count. */
export function calibrationBinsEqualMass(
  conf: ArrayLike<number>,
  hit: ArrayLike<number>,
  k = 10,
): { bins: CalibrationBin[]; ece: number } {
  return calibrationOverGroups(equalCountGroups(conf, k), conf, hit);
}

/** The mean of `values` within each group (NaN for an empty one). */
export function meanOverGroups(groups: readonly (readonly number[])[], values: ArrayLike<number>): number[] {
  return groups.map((g) => g.reduce((sum, i) => sum + values[i]!, 0) / g.length);
}

export interface BrierDecomposition {
  /** Murphy's decomposition on the equal-mass bins: Brier ≈ reliability − resolution + uncertainty. */
  reliability: number;
  resolution: number;
  uncertainty: number;
}

export function brierDecomposition(bins: readonly CalibrationBin[], n: number): BrierDecomposition {
  let hits = 0;
  for (const b of bins) hits += (b.hitRate ?? 0) * b.count;
  const base = n ? hits / n : Number.NaN;
  let reliability = 0;
  let resolution = 0;
  for (const b of bins) {
    if (!b.count) continue;
    reliability += (b.count / n) * (b.meanConfidence! - b.hitRate!) ** 2;
    resolution += (b.count / n) * (b.hitRate! - base) ** 2;
  }
  return { reliability, resolution, uncertainty: base * (1 - base) };
}

/** CRPS from the 19 published quantiles p05…p95 (log return): the rule an outside scorer can apply. */
function crpsFromPublished(q: ArrayLike<number>, y: number): number {
  let s = 0;
  for (const tau of PUBLIC_QUANTILES) s += pinball(q[GRID_INDEX(tau)]!, tau, y);
  return (2 * s) / PUBLIC_QUANTILES.length;
}

/** CRPS from the 19 published quantiles themselves (`q[k]` at level PUBLIC_QUANTILES[k], log return). */
export function crpsOfPublicQuantiles(q: ArrayLike<number>, y: number): number {
  let s = 0;
  for (let k = 0; k < PUBLIC_QUANTILES.length; k++) s += pinball(q[k]!, PUBLIC_QUANTILES[k]!, y);
  return (2 * s) / PUBLIC_QUANTILES.length;
}

/** One forecaster's scored outcomes, accumulated in time order. */
export class ScoreAccumulator {
  readonly hit: number[] = [];
  readonly conf: number[] = [];
  readonly crps: number[] = [];
  readonly crpsPublished: number[] = [];
  readonly absErr: number[] = [];
  readonly cover80: number[] = [];
  readonly cover90: number[] = [];
  readonly sigma: number[] = [];
  readonly flat: number[] = [];
  readonly pinballSum = new Float64Array(PUBLIC_QUANTILES.length);

  /**
   * q: the 99-level grid quantiles of the log return; median: its 0.50 quantile; y: realized log return;
   * sigma: the predictive σ the forecast was made with (for conditional coverage).
   */
  add(q: ArrayLike<number>, median: number, confidence: number, y: number, sigma = Number.NaN): void {
    this.hit.push((median >= 0 ? y > 0 : y < 0) ? 1 : 0);
    this.conf.push(confidence);
    this.crps.push(crpsFromGrid(q, y));
    this.crpsPublished.push(crpsFromPublished(q, y));
    this.absErr.push(Math.abs(y - median));
    this.cover80.push(q[GRID_INDEX(0.1)]! <= y && y <= q[GRID_INDEX(0.9)]! ? 1 : 0);
    this.cover90.push(q[GRID_INDEX(0.05)]! <= y && y <= q[GRID_INDEX(0.95)]! ? 1 : 0);
    this.sigma.push(sigma);
    this.flat.push(median === 0 ? 1 : 0);
    PUBLIC_QUANTILES.forEach((tau, k) => {
      this.pinballSum[k]! += pinball(q[GRID_INDEX(tau)]!, tau, y);
    });
  }

  get count(): number {
    return this.hit.length;
  }
}

const mean = (x: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return x.length ? s / x.length : Number.NaN;
};

/** Hit rate with its HAC (Newey–West) standard error: overlapping horizons make outcomes correlated. */
export function hitRateWithSE(
  hit: ArrayLike<number>,
  overlap: number,
): { hitRate: number; hitRateSE: number } {
  const n = hit.length;
  return {
    hitRate: mean(hit),
    hitRateSE: n > 1 ? Math.sqrt(neweyWestVariance(hit, Math.max(overlap - 1, 1)) / n) : Number.NaN,
  };
}

export interface ConfidenceSummary {
  /** Standard deviation of confidence (sharpness), its minimum and maximum. */
  sd: number;
  min: number;
  max: number;
}

export function confidenceSummary(conf: ArrayLike<number>): ConfidenceSummary {
  const m = mean(conf);
  let v = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < conf.length; i++) {
    v += (conf[i]! - m) ** 2;
    min = Math.min(min, conf[i]!);
    max = Math.max(max, conf[i]!);
  }
  return { sd: conf.length ? Math.sqrt(v / conf.length) : Number.NaN, min, max };
}

/** Coverage of the 80 % interval within each tercile of the predictive σ (low, middle, high). */
export function coverageBySigmaTercile(sigma: ArrayLike<number>, cover: ArrayLike<number>): number[] {
  return meanOverGroups(equalCountGroups(sigma, 3), cover);
}

export interface ForecasterMetrics {
  count: number;
  hitRate: number;
  /** Standard error of the hit rate, HAC (Newey–West) because overlapping horizons make outcomes correlated. */
  hitRateSE: number;
  brier: number;
  /** 1 − Brier / 0.25 (the coin flip's Brier score). */
  brierSkill: number;
  brierDecomposition: BrierDecomposition;
  /** ECE on ten equal-width bins of confidence, and on ten equal-mass bins (deciles of confidence). */
  ece: number;
  eceEqualMass: number;
  calibration: CalibrationBin[];
  calibrationEqualMass: CalibrationBin[];
  confidence: ConfidenceSummary;
  /** Share of forecasts whose median is exactly the baseline. */
  shareFlat: number;
  crps: number;
  /** CRPS on the 19 published quantiles (what a scorer of the datapoints computes). */
  crpsPublished: number;
  /** 1 − CRPS / CRPS of the calibrated zero-mean reference (same σ, its own conformal layer). */
  crpsSkillVsReference: number;
  crpsSkillVsEwma: number;
  crpsSkillVsRandomWalk: number;
  /** Diebold–Mariano on the CRPS difference (negative: this forecaster's CRPS is smaller), HAC. */
  dieboldMarianoVsReference: DieboldMariano;
  dieboldMarianoVsEwma: DieboldMariano;
  pinball: Record<string, number>;
  coverage80: number;
  coverage90: number;
  /** 80 % coverage in the low, middle and high tercile of the predictive σ. */
  coverage80BySigmaTercile: number[];
  meanAbsError: number;
  /** Diebold–Mariano of |error| vs the random walk's (its median is 0). */
  dieboldMarianoVsRandomWalk: DieboldMariano;
}

export function summarize(
  a: ScoreAccumulator,
  refs: { ewma: ScoreAccumulator; randomWalk: ScoreAccumulator; reference: ScoreAccumulator },
  overlap: number,
): ForecasterMetrics {
  const n = a.count;
  const { hitRate, hitRateSE } = hitRateWithSE(a.hit, overlap);
  let brier = 0;
  for (let i = 0; i < n; i++) brier += (a.conf[i]! - a.hit[i]!) ** 2;
  brier /= n;
  const { bins, ece } = calibrationBins(a.conf, a.hit);
  const equalMass = calibrationBinsEqualMass(a.conf, a.hit);
  const crps = mean(a.crps);
  const diff = (x: readonly number[], y: readonly number[]) => x.map((e, i) => e - y[i]!);
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
    brierDecomposition: brierDecomposition(equalMass.bins, n),
    ece,
    eceEqualMass: equalMass.ece,
    calibration: bins,
    calibrationEqualMass: equalMass.bins,
    confidence: confidenceSummary(a.conf),
    shareFlat: mean(a.flat),
    crps,
    crpsPublished: mean(a.crpsPublished),
    crpsSkillVsReference: 1 - crps / mean(refs.reference.crps),
    crpsSkillVsEwma: 1 - crps / mean(refs.ewma.crps),
    crpsSkillVsRandomWalk: 1 - crps / mean(refs.randomWalk.crps),
    dieboldMarianoVsReference: dieboldMariano(diff(a.crps, refs.reference.crps), overlap),
    dieboldMarianoVsEwma: dieboldMariano(diff(a.crps, refs.ewma.crps), overlap),
    pinball: pin,
    coverage80: mean(a.cover80),
    coverage90: mean(a.cover90),
    coverage80BySigmaTercile: coverageBySigmaTercile(a.sigma, a.cover80),
    meanAbsError: mean(a.absErr),
    dieboldMarianoVsRandomWalk: dieboldMariano(diff(a.absErr, refs.randomWalk.absErr), overlap),
  };
}
