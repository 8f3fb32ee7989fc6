import { ConformalQuantiles, GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { consistentMedian, type DirectionCall, DirectionCalibrator } from '../calibration/direction.ts';
import { CalibrationGrid, calibrationSpacingMs } from '../calibration/grid.ts';
import { SigmaBins } from '../calibration/sigma-bins.ts';
import { SigmaSlope } from '../calibration/sigma-slope.ts';
import { extractFeatures, FEATURE_NAMES, type FeatureContext, type FeatureSet } from '../features/extract.ts';
import { clamp } from '../math.ts';
import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { FACTORS, type Factor, type LiveInputs } from '../types.ts';
import { EvidenceShrinkage } from './evidence.ts';
import { OnlineRidge } from './ridge.ts';
import {
  type SigmaCandidate,
  SigmaCombiner,
  SIGMA_CANDIDATES,
  SIGMA_CANDIDATES_CLOSE,
  sigmaCandidates,
} from './sigma-pool.ts';
import { basketBurstFactor } from './vol.ts';
import { FixedShareWeights } from './weights.ts';

/** Bumped whenever the model's logic or fixed hyper-parameters change; stored with every datapoint. */
export const MODEL_VERSION = 'meridian-ens-1.8.0';

/** `reference`: the calibrated zero-mean forecast (same σ, its own conformal layer and calibrator, mean 0). */
export type ViewName = 'ensemble' | 'reference' | 'equal' | Factor;
/**
 * Fixed hyper-parameters, chosen a priori (not tuned on the evaluation period); see docs/forecasting.md.
 * Everything that depends on sampling is expressed in time and converted with the step size.
 */
export interface EngineOptions {
  /** Time between consecutive forecasts (the bar size in a backtest, the refresh period live). */
  stepMs: number;
  /** Keep calibrated views for each member and for equal weights (backtests); live needs the ensemble only. */
  trackMembers?: boolean;
  /** Design switches, for side-by-side comparisons in backtests; production uses the defaults. */
  tuning?: Partial<EngineTuning>;
  /** Design switches for one horizon only, applied over `tuning`. */
  tuningByHorizon?: Partial<Record<Horizon, Partial<EngineTuning>>>;
}

export interface EngineTuning {
  /** Positive-part threshold on t² of the evidence shrinkage (0: means pass unshrunk except b̂ ∈ [0, 1]). */
  evidenceKappa: number;
  /** Memory of the evidence shrinkage, in ms. */
  evidenceMemoryMs: number;
  /** Apply the evidence shrinkage at all (off: 1.2.0's means). */
  shrink: boolean;
  /** Learn the slope of the realized scale on log σ. */
  sigmaSlope: boolean;
  /** Memory of the slope, in ms, and its prior toward β = 1 in independent outcomes. */
  sigmaSlopeMemoryMs: number;
  sigmaSlopePriorOutcomes: number;
  /** Combine the shrunk members by their fixed-share weights renormalized without the zero expert. */
  withoutZeroExpert: boolean;
  /** One conformal layer per tercile of σ (Mondrian), falling back to the pooled layer until warm. */
  mondrian: boolean;
  /** Window of σ history whose terciles define the Mondrian groups, in ms. */
  sigmaBinsMemoryMs: number;
  /**
   * Combine only the members whose evidence passes some of their mean (shrinkage factor > 0), their weights
   * renormalized among themselves: a member shrunk to 0 adds nothing to the mean and no longer dilutes those
   * that earned their pass.
   */
  combinePassedOnly: boolean;
  /** Shrink the combined mean again by the ensemble's own evidence. */
  ensembleShrink: boolean;
  /** σ candidate the slope shrinks toward. */
  sigmaLevel: SigmaCandidate;
  /** How many of SIGMA_CANDIDATES the σ pool combines (6: the close-to-close pool of 1.2.0–1.3.0). */
  sigmaPoolSize: number;
  /**
   * Direction calibrator prior, in independent outcomes (× overlap in forecasts): blocks are shrunk toward
   * 0.5 (the coin flip), not toward the window's up-share — the latter is a trend bet that cost Brier score
   * at 6 h on BTC 2021. 100 was preferred to 20 and 50 on BTC 2021 (Brier and ECE at every horizon).
   */
  calibrationPriorOutcomes: number;
  /** Window of (score, outcome) pairs the direction calibrator is fitted on, in ms. */
  calibrationWindowMs: number;
  /** Floor of the ACI step, per hour of time. */
  aciGammaFloorPerHour: number;
  /** Residual window of the pooled conformal layer, in ms of time. */
  conformalWindowMs: number;
  /**
   * Residual window of each σ-tercile layer, in ms of time. A tercile layer sees about a third of the
   * forecasts, so the same number of residuals spans about three times as long.
   */
  binWindowMs: number;
}

const DAY_MS = 24 * 60 * 60_000;
/**
 * Chosen on BTC spot 2021 (5-minute bars) only; docs/adr/0004-direction-only-where-earned.md and
 * docs/adr/0001-conformal-calibration.md list what was compared. κ = 1 with a 90-day memory is the only
 * setting tried that kept orderflow's 15m skill (DM p < 0.05 against the reference) without costing CRPS at
 * 6h; a second shrinkage of the combined mean (its own evidence) and κ = 4 dropped every mean; the slope on
 * log σ helped 15m terciles by 0.3 pt and hurt 6h by 1.4 pt; one conformal layer per σ tercile (Mondrian)
 * brought 6h coverage by tercile from 0.762 / 0.798 / 0.833 to 0.779 / 0.794 / 0.824 (a 90-day tercile
 * window: 0.784 / 0.801 / 0.826, CRPS 3 bp worse).
 */
const DEFAULT_TUNING: EngineTuning = {
  evidenceKappa: 1,
  evidenceMemoryMs: 90 * DAY_MS,
  shrink: true,
  sigmaSlope: false,
  sigmaSlopeMemoryMs: 30 * DAY_MS,
  sigmaSlopePriorOutcomes: 50,
  withoutZeroExpert: true,
  combinePassedOnly: false,
  ensembleShrink: false,
  mondrian: true,
  sigmaBinsMemoryMs: 30 * DAY_MS,
  sigmaLevel: 'rv7d',
  sigmaPoolSize: SIGMA_CANDIDATES_CLOSE,
  calibrationPriorOutcomes: 100,
  aciGammaFloorPerHour: 0.0024,
  calibrationWindowMs: 21 * DAY_MS,
  conformalWindowMs: 10 * DAY_MS,
  binWindowMs: 30 * DAY_MS,
};

/**
 * A design switch given from outside (the backtester's `--tuning`), checked against the defaults: a known
 * name and a value of the default's type. The error names what is wrong.
 */
export function checkTuning(value: unknown, where: string): Partial<EngineTuning> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where}: expected an object of design switches`);
  for (const [name, v] of Object.entries(value)) {
    if (!Object.hasOwn(DEFAULT_TUNING, name))
      throw new Error(`${where}: unknown switch ${name} (known: ${Object.keys(DEFAULT_TUNING).join(', ')})`);
    const expected = typeof DEFAULT_TUNING[name as keyof EngineTuning];
    if (typeof v !== expected || (expected === 'number' && !Number.isFinite(v)))
      throw new Error(`${where}.${name}: expected a ${expected}, got ${JSON.stringify(v)}`);
  }
  return value as Partial<EngineTuning>;
}

/**
 * 1.4.0, chosen on BTC spot 2021 (5-minute bars) only; docs/adr/0005-range-based-fast-sigma.md (1.4.0),
 * 0006-activity-scaled-sigma.md (1.5.0) and 0007-basket-burst-and-passed-members.md (1.6.0) list what was
 * compared. At 15m and 1h the σ pool also holds the range-based and seasonal fast σ (CRPS +7 / +4 bp); at
 * 6h, where the pool's weights barely move, they diluted the slow candidates (−8 bp) and are left out. At
 * 15m the evidence threshold is κ = 0.5 (orderflow's skill reaches the ensemble: +0.023 % vs the reference,
 * DM p 0.004, against +0.015 %, p 0.042); at 1h it changed nothing and at 6h it cost 0.5 bp and ECE 0.005.
 * 1.5.0: the 15m pool holds the three activity-scaled σ (range, EWMA, HAR) and the 10-minute range EWMA
 * alone, seasonal and activity-scaled (+18 bp against the random walk); the 1h pool the activity-scaled
 * range σ only (+2 bp; more gave less).
 * 1.6.0, at 15m only: the range σ times the basket's burst factor joins the pool (+2.4 bp; at 1h +0.1 bp, so
 * 1h keeps ten), and the mean combines only the members whose evidence passes (+1.5 bp; against the
 * reference +0.025 → +0.041 %; at 1h and 6h −0.2 / −0.5 bp, where no member has significant skill).
 */
const DEFAULT_TUNING_BY_HORIZON: Partial<Record<Horizon, Partial<EngineTuning>>> = {
  '15m': { sigmaPoolSize: SIGMA_CANDIDATES.length, evidenceKappa: 0.5, combinePassedOnly: true },
  '1h': { sigmaPoolSize: SIGMA_CANDIDATES.indexOf('range_activity') + 1 },
};

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

export interface View {
  /** The conformal layer over all outcomes, and one per σ tercile (used once warm, `mondrian` only). */
  conformal: ConformalQuantiles;
  byBin: ConformalQuantiles[];
  direction: DirectionCalibrator;
}

/** The conformal layer answers Gaussian quantiles for its first day of outcomes. */
const CONFORMAL_MIN_MS = DAY_MS;
/** The direction calibrator is refitted daily once it has three days of scored outcomes. */
const CALIBRATION_REFIT_MS = DAY_MS;
const CALIBRATION_MIN_MS = 3 * DAY_MS;
/**
 * ACI step per unit of horizon overlap (feedback of overlapping forecasts is strongly autocorrelated), with a
 * floor per hour of time: 1.2.0 floored it per step (0.0002), which at a 1-minute step made the 6h
 * intervals adapt 7× faster than at 5 minutes.
 */
const ACI_GAMMA = 0.01;
const steps = (ms: number, stepMs: number, lo: number, hi: number) =>
  Math.max(lo, Math.min(hi, Math.round(ms / stepMs)));

/**
 * A conformal layer: its ACI step counts every outcome (`stepMs`), its window, warm-up and re-sort count
 * those on the calibration grid (`spacingMs`, calibration/grid.ts).
 */
const newConformal = (
  stepMs: number,
  spacingMs: number,
  overlap: number,
  gammaFloorPerHour: number,
  windowMs: number,
) =>
  new ConformalQuantiles(
    steps(windowMs, spacingMs, 500, 50_000),
    Math.max(ACI_GAMMA / overlap, (gammaFloorPerHour * stepMs) / 3_600_000),
    steps(CONFORMAL_MIN_MS, spacingMs, 50, 5000),
    steps(4 * 3_600_000, spacingMs, 1, 1000),
  );

/** The outcomes of which forecasts enter a horizon's calibration windows. */
export const newCalibrationGrid = (stepMs: number, horizonMs: number): CalibrationGrid =>
  new CalibrationGrid(calibrationSpacingMs(stepMs, horizonMs));

export const newView = (stepMs: number, horizonMs: number, tuning: EngineTuning): View => {
  const overlap = Math.max(1, horizonMs / stepMs);
  const spacing = calibrationSpacingMs(stepMs, horizonMs);
  const layer = (windowMs: number) =>
    newConformal(stepMs, spacing, overlap, tuning.aciGammaFloorPerHour, windowMs);
  return {
    conformal: layer(tuning.conformalWindowMs),
    byBin: tuning.mondrian ? [0, 1, 2].map(() => layer(tuning.binWindowMs / 3)) : [],
    // The prior is in independent outcomes times the grid outcomes per horizon (what the window counts).
    direction: new DirectionCalibrator(
      steps(tuning.calibrationWindowMs, spacing, 1000, 100_000),
      steps(CALIBRATION_REFIT_MS, spacing, 50, 5000),
      steps(CALIBRATION_MIN_MS, spacing, 100, 10_000),
      tuning.calibrationPriorOutcomes * Math.max(1, horizonMs / spacing),
    ),
  };
};

/** The σ terciles of the Mondrian conformal layers: 30 days of σ on the calibration grid, refitted daily. */
export const newSigmaBins = (stepMs: number, horizonMs: number, tuning: EngineTuning): SigmaBins => {
  const spacing = calibrationSpacingMs(stepMs, horizonMs);
  return new SigmaBins(
    steps(tuning.sigmaBinsMemoryMs, spacing, 1000, 200_000),
    steps(DAY_MS, spacing, 50, 5000),
    steps(DAY_MS, spacing, 50, 5000),
  );
};

/** The conformal layer a forecast in σ bin `bin` uses: its bin's once warm, else the pooled one. */
export const layerOf = (view: View, bin: number): ConformalQuantiles => {
  const own = view.byBin[bin];
  return own?.warm ? own : view.conformal;
};

/** One symbol × horizon: the members, their online weights, and the calibrated predictive distribution. */
class HorizonModel {
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
  /** Which scored outcomes enter the windows of `sigmaBins` and the views (the rest only adapt ACI levels). */
  readonly grid: CalibrationGrid;
  readonly views: Partial<Record<ViewName, View>>;
  readonly tuning: EngineTuning;
  private readonly sigmaLevel: number;
  scored = 0;

  constructor(
    readonly horizon: Horizon,
    options: EngineOptions,
  ) {
    const tuning = {
      ...DEFAULT_TUNING,
      ...DEFAULT_TUNING_BY_HORIZON[horizon],
      ...options.tuning,
      ...options.tuningByHorizon?.[horizon],
    };
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
   * capacity in outcomes on the calibration grid, 10–30 days of them): a hard bound, whatever the uptime. `heldBytes` never exceeds it
   * by more than the fitted direction step functions (16 bytes a pooled block).
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
      if (onGrid) {
        view.conformal.record(y, vf.mu, sigma);
        view.direction.add(vf.score, y);
      }
    }
    this.scored++;
  }
}

/** All horizons of one symbol, reading features from a context that the caller keeps current. */
export class SymbolForecaster {
  readonly models: Record<Horizon, HorizonModel>;

  constructor(
    readonly symbol: string,
    readonly horizons: readonly Horizon[],
    options: EngineOptions,
  ) {
    this.models = {} as Record<Horizon, HorizonModel>;
    for (const h of horizons) this.models[h] = new HorizonModel(h, options);
  }

  /** Forecasts at time t from data known at t; undefined while history is too short (under 1 h). */
  forecast(ctx: FeatureContext, t: number, live?: LiveInputs): HorizonForecast[] | undefined {
    const fs = extractFeatures(live ? { ...ctx, live } : ctx, t);
    if (!fs) return undefined;
    const baseline = live?.mid !== undefined && live.mid > 0 ? live.mid : fs.lastClose;
    const out: HorizonForecast[] = [];
    const burst = basketBurstFactor(ctx.basket, ctx.series, t);
    for (const h of this.horizons) {
      const candidates = sigmaCandidates(ctx.series, fs.index, HORIZON_MS[h], burst);
      if (candidates === undefined) return undefined;
      out.push(this.models[h].forecast(fs, candidates, baseline));
    }
    return out;
  }

  /** Whether the model of `horizon` has made its first fit (its forecasts are published from then on). */
  fitted(horizon: Horizon): boolean {
    return this.models[horizon].fitted;
  }

  /** Bytes held by the calibration windows of every horizon (they grow with outcomes, up to 30 days' worth). */
  get heldBytes(): number {
    return this.horizons.reduce((sum, h) => sum + this.models[h].heldBytes, 0);
  }

  /** The bound of `heldBytes`' windows, every horizon (HorizonModel.maxWindowBytes). */
  get maxWindowBytes(): number {
    return this.horizons.reduce((sum, h) => sum + this.models[h].maxWindowBytes, 0);
  }

  learn(f: HorizonForecast, realizedPrice: number): void {
    this.models[f.horizon].learn(f, Math.log(realizedPrice / f.baseline));
  }
}
