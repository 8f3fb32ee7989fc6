import type { BarSeries } from '../features/series.ts';
import { crpsGaussian } from '../scoring/metrics.ts';
import {
  activityFactor,
  ewmaSigma,
  expandingSigma,
  fastRangeSigma,
  harSigma,
  rangeSigma,
  seasonalFactor,
} from './vol.ts';

const DAY = 24 * 60 * 60_000;

/** The σ candidates pooled by `SigmaCombiner`, in the order of `sigmaCandidates`' output. */
export const SIGMA_CANDIDATES = [
  'har',
  'ewma',
  'har_ewma',
  'expanding',
  'rv30d',
  'rv7d',
  'ewma_seasonal',
  'range',
  'range_seasonal',
  'range_activity',
  'ewma_activity',
  'har_activity',
  'range_fast',
  'range_fast_seasonal',
  'range_fast_activity',
  'range_basket_burst',
] as const;
/** The first six: the pool of 1.2.0–1.3.0. */
export const SIGMA_CANDIDATES_CLOSE = 6;
export type SigmaCandidate = (typeof SIGMA_CANDIDATES)[number];

/**
 * σ of the log return over `horizonMs` after bar i under each candidate: the HAR model, the EWMA (half-life
 * 1 h), their geometric mean (1.1.0's rule at ≤ 1 h), the expanding-window σ and realized σ over the last 30
 * and 7 days (the expanding σ while history is shorter); then (1.4.0) the EWMA with the intraday seasonal
 * factor, the range-based EWMA alone and with it, and (1.5.0) the range-based EWMA, the EWMA and HAR each
 * scaled by the last minutes' trading activity (`activityFactor`), and the range-based EWMA with a 10-minute
 * half-life alone, with the seasonal factor and with the activity factor, and (1.6.0) the range-based EWMA
 * times the basket's burst factor (`basketBurstFactor`, computed by the caller from the other symbols).
 * Reads bars 0..i only; undefined until HAR is.
 */
export function sigmaCandidates(
  s: BarSeries,
  i: number,
  horizonMs: number,
  basketBurst = 1,
): Float64Array | undefined {
  const seasonal = seasonalFactor(s, i, horizonMs);
  const har = harSigma(s, i, horizonMs, seasonal);
  if (har === undefined || !(har > 0)) return undefined;
  const ew = ewmaSigma(s, i, horizonMs);
  const ewma = ew > 0 ? ew : har;
  const ex = expandingSigma(s, i, horizonMs);
  const expanding = ex !== undefined && ex > 0 ? ex : har;
  const window = (ms: number) => {
    const rv = s.rv(i, ms);
    return rv !== undefined && rv > 0 ? Math.sqrt(rv * horizonMs) : expanding;
  };
  const rs = rangeSigma(s, i, horizonMs);
  const range = rs > 0 ? rs : ewma;
  const season = Math.sqrt(seasonal);
  const activity = Math.sqrt(activityFactor(s, i));
  const fast = fastRangeSigma(s, i, horizonMs);
  const fastRange = fast > 0 ? fast : range;
  return Float64Array.of(
    har,
    ewma,
    Math.sqrt(har * ewma),
    expanding,
    window(30 * DAY),
    window(7 * DAY),
    ewma * season,
    range,
    range * season,
    range * activity,
    ewma * activity,
    har * activity,
    fastRange,
    fastRange * season,
    fastRange * activity,
    range * basketBurst,
  );
}

/**
 * Online choice of the predictive σ: σ = exp(Σ w_k log σ_k), a weighted geometric mean of the candidates,
 * with w learned by fixed share (as the member weights) on each candidate's realized CRPS. The loss of
 * candidate k is the CRPS of N(μ, c_k σ_k), where c_k² is an exponentially weighted mean of (y/σ_k)² over
 * earlier outcomes: the conformal layer downstream corrects the overall scale, so a candidate is judged on
 * the shape of its σ over time, not on its level. Losses are divided by the pool's σ so they are unit-free.
 * Only `update` reads an outcome, and the caller calls it once the forecast's horizon has passed.
 */
export class SigmaCombiner {
  readonly weights: Float64Array;
  /** Exponentially weighted mean of (y/σ_k)² per candidate: the squared level correction c_k². */
  readonly scale2: Float64Array;
  private count = 0;

  constructor(
    readonly size: number,
    /** Fixed-share learning rate per scored forecast. */
    readonly eta: number,
    /** Fixed-share mixing per scored forecast (1 / memory in forecasts). */
    readonly share: number,
    /** Decay per scored forecast of the level correction. */
    readonly scaleDecay: number,
    /** Scored forecasts before the level correction is used. */
    readonly warmup = 50,
  ) {
    this.weights = new Float64Array(size).fill(1 / size);
    this.scale2 = new Float64Array(size).fill(1);
  }

  sigma(candidates: ArrayLike<number>): number {
    let s = 0;
    for (let k = 0; k < this.size; k++) s += this.weights[k]! * Math.log(candidates[k]!);
    return Math.exp(s);
  }

  /** Learns from a scored forecast: its candidates' σ, its mean and the realized log return. */
  update(candidates: ArrayLike<number>, mu: number, y: number): void {
    if (!Number.isFinite(y)) return;
    const w = this.weights;
    const warm = this.count >= this.warmup;
    let logRef = 0;
    for (let k = 0; k < this.size; k++) logRef += Math.log(candidates[k]!);
    const ref = Math.exp(logRef / this.size);
    const loss = new Float64Array(this.size);
    let min = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.size; k++) {
      const sk = warm ? candidates[k]! * Math.sqrt(this.scale2[k]!) : candidates[k]!;
      loss[k] = crpsGaussian(mu, sk, y) / ref;
      if (loss[k]! < min) min = loss[k]!;
    }
    let sum = 0;
    for (let k = 0; k < this.size; k++) {
      w[k] = w[k]! * Math.exp(-this.eta * (loss[k]! - min));
      sum += w[k]!;
    }
    for (let k = 0; k < this.size; k++) w[k] = (1 - this.share) * (w[k]! / sum) + this.share / this.size;
    const d = this.scaleDecay;
    for (let k = 0; k < this.size; k++) {
      this.scale2[k] = d * this.scale2[k]! + (1 - d) * ((y - mu) / candidates[k]!) ** 2;
    }
    this.count++;
  }
}
