import { ConformalQuantiles, GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { IsotonicCalibrator } from '../calibration/isotonic.ts';
import { extractFeatures, FEATURE_NAMES, type FeatureContext, type FeatureSet } from '../features/extract.ts';
import { clamp } from '../math.ts';
import { FACTORS, type Factor, HORIZON_MS, type Horizon, type LiveInputs } from '../types.ts';
import { OnlineRidge } from './ridge.ts';
import { SigmaCombiner, SIGMA_CANDIDATES, sigmaCandidates } from './sigma-pool.ts';
import { FixedShareWeights } from './weights.ts';

/** Bumped whenever the model's logic or fixed hyper-parameters change; stored with every datapoint. */
export const MODEL_VERSION = 'meridian-ens-1.2.0';

export type ViewName = 'ensemble' | 'equal' | Factor;
export const MEMBER_VIEWS: readonly ViewName[] = FACTORS;

/**
 * Fixed hyper-parameters, chosen a priori (not tuned on the evaluation period); see docs/forecasting.md.
 * Everything that depends on sampling is expressed in time and converted with the step size.
 */
export interface EngineOptions {
  /** Time between consecutive forecasts (the bar size in a backtest, the refresh period live). */
  stepMs: number;
  /** Keep calibrated views for each member and for equal weights (backtests); live needs the ensemble only. */
  trackMembers?: boolean;
}

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
  /** Mean log return of this forecaster. */
  mu: number;
  /** Median log return (quantile 0.50 after conformal calibration). */
  median: number;
  /** Quantiles of the log return on GRID (0.01 … 0.99). */
  quantiles: Float64Array;
  /** Raw direction score |median|/σ fed to the calibrator. */
  score: number;
  /** Calibrated probability that the realized return lies on the median's side of zero. */
  confidence: number;
}

export interface HorizonForecast {
  horizon: Horizon;
  t: number;
  baseline: number;
  sigma: number;
  /** σ of each SIGMA_CANDIDATES entry at t; `sigma` is their learned pool. */
  sigmaCandidates: Float64Array;
  features: FeatureSet;
  memberMu: Float64Array;
  /** Equal-weight mean of orderflow, funding, macro: what ai_residual corrects. */
  base: number;
  weights: Float64Array;
  views: Partial<Record<ViewName, ViewForecast>>;
  /** Additive contributions (log return) of each factor to the ensemble median; they sum to it. */
  contributions: Record<Factor, number>;
}

interface View {
  conformal: ConformalQuantiles;
  iso: IsotonicCalibrator;
}

/** Residual window of the conformal layer, in time: about ten days. */
const CONFORMAL_WINDOW_MS = 10 * 24 * 60 * 60_000;
/** Window of (score, hit) pairs the direction calibrator is fitted on: about three weeks. */
const CALIBRATION_WINDOW_MS = 21 * 24 * 60 * 60_000;
/** ACI step per unit of horizon overlap: feedback of overlapping forecasts is strongly autocorrelated. */
const ACI_GAMMA = 0.01;
/**
 * Calibrator prior, in independent outcomes (× overlap in forecasts): blocks are shrunk toward 0.5 (the coin
 * flip), not toward the window's hit rate — the latter is the recent up-share, a trend bet that cost Brier
 * score at 6 h on BTC 2021. 100 was preferred to 20 and 50 on BTC 2021 (Brier and ECE at every horizon).
 */
const CALIBRATION_PRIOR_OUTCOMES = 100;

const newView = (stepMs: number, overlap: number): View => ({
  conformal: new ConformalQuantiles(
    Math.max(500, Math.min(20_000, Math.round(CONFORMAL_WINDOW_MS / stepMs))),
    Math.max(ACI_GAMMA / overlap, 0.0002),
  ),
  iso: new IsotonicCalibrator(
    Math.max(1000, Math.min(20_000, Math.round(CALIBRATION_WINDOW_MS / stepMs))),
    250,
    300,
    CALIBRATION_PRIOR_OUTCOMES * overlap,
    0.5,
  ),
});

/** One symbol × horizon: the members, their online weights, and the calibrated predictive distribution. */
export class HorizonModel {
  readonly members: Record<Factor, OnlineRidge>;
  /** Weights of orderflow, funding, macro, ai_residual and the zero forecast (index ZERO_EXPERT). */
  readonly weights: FixedShareWeights;
  /** Learned choice of the predictive σ among SIGMA_CANDIDATES. */
  readonly sigmaPool: SigmaCombiner;
  readonly views: Partial<Record<ViewName, View>>;
  scored = 0;

  constructor(
    readonly horizon: Horizon,
    options: EngineOptions,
  ) {
    const overlap = Math.max(1, HORIZON_MS[horizon] / options.stepMs);
    const lambda = RIDGE_LAMBDA_PER_OVERLAP * overlap;
    const forget = 1 - options.stepMs / RIDGE_MEMORY_MS;
    this.members = {
      orderflow: new OnlineRidge(FEATURE_NAMES.orderflow.length, lambda, forget),
      funding: new OnlineRidge(FEATURE_NAMES.funding.length, lambda, forget),
      macro: new OnlineRidge(FEATURE_NAMES.macro.length, lambda, forget),
      ai_residual: new OnlineRidge(FEATURE_NAMES.ai.length, lambda, forget),
    };
    this.weights = new FixedShareWeights(
      5,
      WEIGHTS_ETA_PER_OUTCOME / overlap,
      options.stepMs / WEIGHTS_MEMORY_MS,
    );
    this.sigmaPool = new SigmaCombiner(
      SIGMA_CANDIDATES.length,
      SIGMA_ETA_PER_OUTCOME / overlap,
      options.stepMs / SIGMA_MEMORY_MS,
      1 - options.stepMs / SIGMA_SCALE_MEMORY_MS,
    );
    this.views = { ensemble: newView(options.stepMs, overlap) };
    if (options.trackMembers) {
      this.views.equal = newView(options.stepMs, overlap);
      for (const f of FACTORS) this.views[f] = newView(options.stepMs, overlap);
    }
  }

  private memberForecast(ridge: OnlineRidge, x: Float64Array | undefined, sigma: number): number {
    if (!x) return 0;
    return sigma * clamp(ridge.predict(x), -MAX_STANDARDIZED_MEAN, MAX_STANDARDIZED_MEAN);
  }

  forecast(fs: FeatureSet, sigmaCandidates: Float64Array, baseline: number): HorizonForecast {
    const sigma = this.sigmaPool.sigma(sigmaCandidates);
    const of = this.memberForecast(this.members.orderflow, fs.orderflow, sigma);
    const fu = this.memberForecast(this.members.funding, fs.funding, sigma);
    const ma = this.memberForecast(this.members.macro, fs.macro, sigma);
    const base = (of + fu + ma) / 3;
    const g = this.memberForecast(this.members.ai_residual, fs.ai, sigma);
    const ai = base + g;
    const memberMu = Float64Array.of(of, fu, ma, ai);
    const w = Float64Array.from(this.weights.weights);
    const mu = w[0]! * of + w[1]! * fu + w[2]! * ma + w[3]! * ai;

    const views: Partial<Record<ViewName, ViewForecast>> = {};
    const make = (name: ViewName, m: number) => {
      const view = this.views[name];
      if (!view) return;
      const q = view.conformal.quantiles(m, sigma, new Float64Array(GRID.length));
      const median = q[GRID_INDEX(0.5)]!;
      const score = sigma > 0 ? Math.abs(median) / sigma : 0;
      views[name] = { mu: m, median, quantiles: q, score, confidence: view.iso.predict(score) };
    };
    make('ensemble', mu);
    if (this.views.equal) {
      make('equal', (of + fu + ma + ai) / 4);
      FACTORS.forEach((f, k) => {
        make(f, memberMu[k]!);
      });
    }
    const ens = views.ensemble!;
    // The ai_residual member's base is the others' average, so its weight is shared back to them; what the
    // calibrated median adds beyond the members' mean (a learned location shift) is residual too.
    const contributions: Record<Factor, number> = {
      orderflow: (w[0]! + w[3]! / 3) * of,
      funding: (w[1]! + w[3]! / 3) * fu,
      macro: (w[2]! + w[3]! / 3) * ma,
      ai_residual: w[3]! * g + (ens.median - mu),
    };
    return {
      horizon: this.horizon,
      t: fs.t,
      baseline,
      sigma,
      sigmaCandidates,
      features: fs,
      memberMu,
      base,
      weights: w,
      views,
      contributions,
    };
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
    const losses = new Float64Array(5);
    for (let k = 0; k < 4; k++) losses[k] = ((y - f.memberMu[k]!) / sigma) ** 2;
    losses[ZERO_EXPERT] = ys * ys;
    this.weights.update(losses);
    this.sigmaPool.update(f.sigmaCandidates, f.views.ensemble!.mu, y);
    for (const [name, vf] of Object.entries(f.views) as [ViewName, ViewForecast][]) {
      const view = this.views[name];
      if (!view) continue;
      view.conformal.update(y, vf.mu, sigma, vf.quantiles);
      view.iso.add(vf.score, directionHit(vf.median, y));
    }
    this.scored++;
  }
}

/** The product's hit rule: the realized return lies strictly on the forecast's side (flat counts as up). */
export function directionHit(median: number, y: number): boolean {
  return median >= 0 ? y > 0 : y < 0;
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
    for (const h of this.horizons) {
      const candidates = sigmaCandidates(ctx.series, fs.index, HORIZON_MS[h]);
      if (candidates === undefined) return undefined;
      out.push(this.models[h].forecast(fs, candidates, baseline));
    }
    return out;
  }

  learn(f: HorizonForecast, realizedPrice: number): void {
    this.models[f.horizon].learn(f, Math.log(realizedPrice / f.baseline));
  }
}
