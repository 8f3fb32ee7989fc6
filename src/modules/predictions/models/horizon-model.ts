import { GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { consistentMedian, type DirectionCall } from '../calibration/direction.ts';
import type { CalibrationGrid } from '../calibration/grid.ts';
import type { SigmaBins } from '../calibration/sigma-bins.ts';
import { SigmaSlope } from '../calibration/sigma-slope.ts';
import { FEATURE_NAMES, type FeatureSet } from '../features/extract.ts';
import { clamp } from '../math.ts';
import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { FACTORS, type Factor } from '../types.ts';
import { EvidenceShrinkage } from './evidence.ts';
import { OnlineRidge } from './ridge.ts';
import { SigmaCombiner, SIGMA_CANDIDATES } from './sigma-pool.ts';
import { type EngineOptions, type EngineTuning, tuningOf } from './tuning.ts';
import {
  layerOf,
  newCalibrationGrid,
  newDirectionGrid,
  newSigmaBins,
  newView,
  steps,
  type View,
  type ViewName,
} from './views.ts';
import { FixedShareWeights } from './weights.ts';

const RIDGE_LAMBDA_PER_OVERLAP = 200;
const RIDGE_MEMORY_MS = 30 * 24 * 60 * 60_000;
/**
 * Fixed-share learning rate per independent outcome (divided by the horizon overlap per step, because
 * overlapping outcomes are near-duplicates) and its share as a memory in time. 1.1.0: the experts are the
 * four members plus "no forecast" (0), so the ensemble can learn to shrink toward zero. Chosen on BTC 2021.
 */
const WEIGHTS_ETA_PER_OUTCOME = 1;
const WEIGHTS_MEMORY_MS = 30 * 24 * 60 * 60_000;
/**
 * σ pool (1.2.0): fixed share over SIGMA_CANDIDATES on their realized CRPS; learning rate per independent
 * outcome, memory and level-correction memory in time. Chosen on BTC 2021 (η 0.03–1, memory 3/7/30 days
 * compared): small η — the pool's weights stay near uniform and most of the gain is the pooling itself.
 */
const SIGMA_ETA_PER_OUTCOME = 0.1;
const SIGMA_MEMORY_MS = 7 * 24 * 60 * 60_000;
const SIGMA_SCALE_MEMORY_MS = 10 * 24 * 60 * 60_000;
/** Index of the "no forecast" expert in the weight vector. */
export const ZERO_EXPERT = 4;
/** No member may forecast more than this many predictive standard deviations. */
const MAX_STANDARDIZED_MEAN = 0.5;

export interface ViewForecast {
  /** Mean log return of this forecaster (after its evidence shrinkage): the conformal layer's centre. */
  mu: number;
  /**
   * Published median log return (quantile 0.50): μ, moved across the baseline only when the calibrated
   * direction call disagrees with μ's side (calibration/direction.ts).
   */
  median: number;
  /** Quantiles of the log return on GRID (0.01 … 0.99), centred on `median`. */
  quantiles: Float64Array;
  /** Signed direction score μ/σ fed to the direction calibrator. */
  score: number;
  /** Calibrated probability that the realized return lies strictly on the median's side (≥ 0.5). */
  confidence: number;
  call: DirectionCall;
  /** Whether the quantiles came from the pooled conformal layer (not the σ bin's own). */
  pooled: boolean;
}

export interface HorizonForecast {
  horizon: Horizon;
  t: number;
  baseline: number;
  /** Predictive σ: the learned pool after the learned slope on log σ. */
  sigma: number;
  /** The σ pool before the slope. */
  sigmaPool: number;
  /** Tercile of σ in its recent history (0 low … 2 high). */
  sigmaBin: number;
  /** σ of each SIGMA_CANDIDATES entry at t; `sigmaPool` is their learned pool. */
  sigmaCandidates: Float64Array;
  /** Whether the model had been fitted when it made this forecast (the warm-up excluded from reports). */
  warm: boolean;
  /** Member means before their evidence shrinkage, and the weighted combination before the ensemble's. */
  rawMemberMu: Float64Array;
  combinedMu: number;
  features: FeatureSet;
  /** Member means after their evidence shrinkage (what the weights combine). */
  memberMu: Float64Array;
  /** Equal-weight mean of orderflow, funding, macro: what ai_residual corrects. */
  base: number;
  weights: Float64Array;
  views: Partial<Record<ViewName, ViewForecast>>;
  /** Additive contributions (log return) of each factor to the ensemble median; they sum to it. */
  contributions: Record<Factor, number>;
}

/** One symbol × horizon: the members, their online weights, and the calibrated predictive distribution. */
export class HorizonModel {
  readonly members: Record<Factor, OnlineRidge>;
  /** Evidence shrinkage of each member's mean (orderflow, funding, macro, ai_residual) and of the ensemble's. */
  readonly memberShrink: EvidenceShrinkage[];
  readonly ensembleShrink: EvidenceShrinkage;
  /** Weights of orderflow, funding, macro, ai_residual and the zero forecast (index ZERO_EXPERT). */
  readonly weights: FixedShareWeights;
  /** Learned choice of the predictive σ among SIGMA_CANDIDATES. */
  readonly sigmaPool: SigmaCombiner;
  readonly sigmaSlope: SigmaSlope;
  /** Terciles of σ over the last 30 days of scored forecasts (the Mondrian conformal layers' groups). */
  readonly sigmaBins: SigmaBins;
  /** Which scored outcomes enter the windows of `sigmaBins` and the conformal layers (the rest adapt ACI). */
  readonly grid: CalibrationGrid;
  /** Which scored outcomes enter the direction calibrators' windows. */
  readonly directionGrid: CalibrationGrid;
  readonly views: Partial<Record<ViewName, View>>;
  readonly tuning: EngineTuning;
  private readonly sigmaLevel: number;
  scored = 0;

  constructor(
    readonly horizon: Horizon,
    options: EngineOptions,
  ) {
    const tuning = tuningOf(horizon, options);
    this.tuning = tuning;
    this.sigmaLevel = SIGMA_CANDIDATES.indexOf(tuning.sigmaLevel);
    const horizonMs = HORIZON_MS[horizon];
    const overlap = Math.max(1, horizonMs / options.stepMs);
    const lambda = RIDGE_LAMBDA_PER_OVERLAP * overlap;
    const forget = 1 - options.stepMs / RIDGE_MEMORY_MS;
    this.members = {
      orderflow: new OnlineRidge(FEATURE_NAMES.orderflow.length, lambda, forget),
      funding: new OnlineRidge(FEATURE_NAMES.funding.length, lambda, forget),
      macro: new OnlineRidge(FEATURE_NAMES.macro.length, lambda, forget),
      ai_residual: new OnlineRidge(FEATURE_NAMES.ai.length, lambda, forget),
    };
    const evidence = () =>
      new EvidenceShrinkage(1 - options.stepMs / tuning.evidenceMemoryMs, overlap, tuning.evidenceKappa);
    this.memberShrink = FACTORS.map(evidence);
    this.ensembleShrink = evidence();
    this.weights = new FixedShareWeights(
      5,
      WEIGHTS_ETA_PER_OUTCOME / overlap,
      options.stepMs / WEIGHTS_MEMORY_MS,
    );
    this.sigmaPool = new SigmaCombiner(
      Math.min(SIGMA_CANDIDATES.length, tuning.sigmaPoolSize),
      SIGMA_ETA_PER_OUTCOME / overlap,
      options.stepMs / SIGMA_MEMORY_MS,
      1 - options.stepMs / SIGMA_SCALE_MEMORY_MS,
      steps(4 * 3_600_000, options.stepMs, 50, 5000),
    );
    this.sigmaSlope = new SigmaSlope(
      1 - options.stepMs / tuning.sigmaSlopeMemoryMs,
      tuning.sigmaSlopePriorOutcomes * overlap,
      tuning.sigmaSlope,
    );
    this.sigmaBins = newSigmaBins(options.stepMs, horizonMs, tuning);
    this.grid = newCalibrationGrid(options.stepMs, horizonMs);
    this.directionGrid = newDirectionGrid(options.stepMs, horizonMs);
    const view = () => newView(options.stepMs, horizonMs, tuning);
    this.views = { ensemble: view(), reference: view() };
    if (options.trackMembers) {
      this.views.equal = view();
      for (const f of FACTORS) this.views[f] = view();
    }
  }

  private memberForecast(ridge: OnlineRidge, x: Float64Array | undefined, sigma: number): number {
    if (!x) return 0;
    return sigma * clamp(ridge.predict(x), -MAX_STANDARDIZED_MEAN, MAX_STANDARDIZED_MEAN);
  }

  private shrinkFactor(e: EvidenceShrinkage): number {
    return this.tuning.shrink ? e.factor : 1;
  }

  forecast(fs: FeatureSet, sigmaCandidates: Float64Array, baseline: number): HorizonForecast {
    const pooled = this.sigmaPool.sigma(sigmaCandidates);
    const level = sigmaCandidates[this.sigmaLevel]!;
    const sigma = this.sigmaSlope.adjust(pooled, level);
    const of = this.memberForecast(this.members.orderflow, fs.orderflow, sigma);
    const fu = this.memberForecast(this.members.funding, fs.funding, sigma);
    const ma = this.memberForecast(this.members.macro, fs.macro, sigma);
    const base = (of + fu + ma) / 3;
    const g = this.memberForecast(this.members.ai_residual, fs.ai, sigma);
    const rawMemberMu = Float64Array.of(of, fu, ma, base + g);
    // Each member passes only as much of its mean as its own walk-forward record supports.
    const factors = this.memberShrink.map((e) => this.shrinkFactor(e));
    const memberMu = rawMemberMu.map((m, k) => factors[k]! * m);
    const w = Float64Array.from(this.weights.weights);
    let norm = this.tuning.withoutZeroExpert ? 1 - w[ZERO_EXPERT]! : 1;
    if (this.tuning.combinePassedOnly) {
      norm = 0;
      for (let k = 0; k < 4; k++) if (factors[k]! > 0) norm += w[k]!;
    }
    let combinedMu = 0;
    if (norm > 0) for (let k = 0; k < 4; k++) combinedMu += (w[k]! / norm) * memberMu[k]!;
    const ensembleFactor = this.tuning.ensembleShrink ? this.shrinkFactor(this.ensembleShrink) : 1;
    const mu = ensembleFactor * combinedMu;

    const views: Partial<Record<ViewName, ViewForecast>> = {};
    const sigmaBin = this.sigmaBins.bin(sigma);
    const make = (name: ViewName, m: number) => {
      const view = this.views[name];
      if (!view) return;
      const layer = layerOf(view, sigmaBin);
      const q = layer.quantiles(m, sigma, new Float64Array(GRID.length));
      const score = sigma > 0 ? m / sigma : 0;
      const call = view.direction.call(score);
      const median = consistentMedian(m, sigma, call);
      const shift = median - m;
      if (shift !== 0) for (let k = 0; k < q.length; k++) q[k] = q[k]! + shift;
      q[GRID_INDEX(0.5)] = median;
      views[name] = {
        mu: m,
        median,
        quantiles: q,
        score,
        confidence: call.confidence,
        call,
        pooled: layer === view.conformal,
      };
    };
    make('ensemble', mu);
    make('reference', 0);
    if (this.views.equal) {
      make('equal', (of + fu + ma + base + g) / 4);
      FACTORS.forEach((f, k) => {
        make(f, rawMemberMu[k]!);
      });
    }
    const ens = views.ensemble!;
    // The ai_residual member's base is the others' average, so its weight is shared back to them; what the
    // published median adds beyond the members' mean (the direction call's move) is residual too.
    const share = (k: number) =>
      norm > 0 ? ((ensembleFactor * w[k]!) / norm) * (memberMu[k]! / (rawMemberMu[k]! || 1)) : 0;
    const aiShare = share(3);
    const contributions: Record<Factor, number> = {
      orderflow: (share(0) + aiShare / 3) * of,
      funding: (share(1) + aiShare / 3) * fu,
      macro: (share(2) + aiShare / 3) * ma,
      ai_residual: aiShare * g + (ens.median - mu),
    };
    return {
      horizon: this.horizon,
      t: fs.t,
      baseline,
      sigma,
      sigmaPool: pooled,
      sigmaBin,
      sigmaCandidates,
      warm: this.fitted,
      features: fs,
      rawMemberMu,
      combinedMu,
      memberMu,
      base,
      weights: w,
      views,
      contributions,
    };
  }

  /**
   * Whether the model has made its first fit: the ensemble's conformal layer has a day of outcomes and its
   * direction calibrator has been fitted. Before it, every forecast is the baseline at confidence 0.5.
   */
  get fitted(): boolean {
    return this.views.ensemble!.conformal.warm && this.views.ensemble!.direction.fitted;
  }

  /** Bytes held by the calibration windows (what grows with scored outcomes; the rest is a few KB). */
  get heldBytes(): number {
    let bytes = this.sigmaBins.heldBytes;
    for (const view of Object.values(this.views))
      bytes +=
        view.conformal.heldBytes +
        view.direction.heldBytes +
        view.byBin.reduce((sum, layer) => sum + layer.heldBytes, 0);
    return bytes;
  }

  /**
   * The most bytes the calibration windows of this symbol × horizon ever hold, once every window is full (its
   * capacity in outcomes on its grid, 10–30 days of them): a hard bound, whatever the uptime. `heldBytes`
   * never exceeds it by more than the fitted direction step functions (16 bytes a pooled block).
   */
  get maxWindowBytes(): number {
    let bytes = this.sigmaBins.maxWindowBytes;
    for (const view of Object.values(this.views))
      bytes +=
        view.conformal.maxWindowBytes +
        view.direction.maxWindowBytes +
        view.byBin.reduce((sum, layer) => sum + layer.maxWindowBytes, 0);
    return bytes;
  }

  /** Learns from a forecast whose horizon has passed; `y` is the realized log return. */
  learn(f: HorizonForecast, y: number): void {
    const { sigma, features: fs } = f;
    if (!(sigma > 0) || !Number.isFinite(y)) return;
    const ys = y / sigma;
    if (fs.orderflow) this.members.orderflow.update(fs.orderflow, ys);
    if (fs.funding) this.members.funding.update(fs.funding, ys);
    if (fs.macro) this.members.macro.update(fs.macro, ys);
    this.members.ai_residual.update(fs.ai, (y - f.base) / sigma);
    for (let k = 0; k < 4; k++) this.memberShrink[k]!.update(f.rawMemberMu[k]! / sigma, ys);
    this.ensembleShrink.update(f.combinedMu / sigma, ys);
    const losses = new Float64Array(5);
    for (let k = 0; k < 4; k++) losses[k] = ((y - f.memberMu[k]!) / sigma) ** 2;
    losses[ZERO_EXPERT] = ys * ys;
    this.weights.update(losses);
    const ens = f.views.ensemble!;
    this.sigmaPool.update(f.sigmaCandidates, ens.mu, y);
    this.sigmaSlope.update(Math.log(f.sigmaPool / f.sigmaCandidates[this.sigmaLevel]!), y - ens.mu);
    const onGrid = this.grid.admits(f.t);
    const onDirectionGrid = this.directionGrid.admits(f.t);
    if (onGrid) this.sigmaBins.add(sigma);
    for (const [name, vf] of Object.entries(f.views) as [ViewName, ViewForecast][]) {
      const view = this.views[name];
      if (!view) continue;
      // Each layer adapts to the quantiles it would have given: pooled and bin layers both see the outcome.
      const shift = vf.median - vf.mu;
      const own = view.byBin[f.sigmaBin];
      if (own) {
        const q = vf.pooled ? own.quantiles(vf.mu, sigma, new Float64Array(GRID.length)) : vf.quantiles;
        own.adapt(y, q, vf.pooled ? 0 : shift);
        if (onGrid) own.record(y, vf.mu, sigma);
      }
      const q = vf.pooled
        ? vf.quantiles
        : view.conformal.quantiles(vf.mu, sigma, new Float64Array(GRID.length));
      view.conformal.adapt(y, q, vf.pooled ? shift : 0);
      if (onGrid) view.conformal.record(y, vf.mu, sigma);
      if (onDirectionGrid) view.direction.add(vf.score, y);
    }
    this.scored++;
  }
}
