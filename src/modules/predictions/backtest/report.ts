import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { type EngineTuning, type SymbolForecaster, ZERO_EXPERT } from '../models/engine.ts';
import { SIGMA_CANDIDATES } from '../models/sigma-pool.ts';
import { type ForecasterMetrics, type ScoreAccumulator, summarize } from '../scoring/metrics.ts';
import { FACTORS } from '../types.ts';
import { type CalibratedWorld, calibratedWorld } from './calibrated-world.ts';
import { type Compact, type LeakageCheck, leakageCheck } from './leakage.ts';
import { LEVEL_SIGMAS, type LevelReport, type LevelTally, type ProbabilityCalibration } from './levels.ts';
import type { StrongReferencesReport } from './references/index.ts';

export const FORECASTERS = ['ensemble', 'reference', 'equal', ...FACTORS, 'random_walk', 'rw_ewma'] as const;
export type ForecasterName = (typeof FORECASTERS)[number];

export interface HorizonReport {
  horizon: Horizon;
  count: number;
  /** Forecasts made before the model's first fit (conformal layer and direction calibrator): not scored. */
  warmupDropped: number;
  /** Forecasts at or after the warm-up left unscored: no bar at the target time, or past `to`. */
  unscored: number;
  /** Total variation per hour of the ensemble's ACI level for its 80 % interval (adaptation speed). */
  aciAdaptationPerHour: number;
  /** Final slope of the realized scale on log σ (1: none) and evidence shrinkage factors. */
  finalSigmaSlope: number;
  finalShrinkage: Record<string, number>;
  forecasters: Record<ForecasterName, ForecasterMetrics>;
  finalWeights: Record<string, number>;
  /** Final weights of the σ pool (models/sigma-pool.ts). */
  finalSigmaWeights: Record<string, number>;
  leakage?: LeakageCheck;
  /**
   * The same metrics for a forecaster that is exactly right, on a world drawn with this run's σ and means:
   * how far from its target a figure lands by chance alone on a period of this length.
   */
  calibratedWorld?: CalibratedWorld;
  /**
   * Reliability of the level probabilities (GET /api/predictions/probability) at fixed multiples of σ from the
   * baseline: ending above the level, and touching it before the horizon.
   */
  levels: LevelReport[];
  /**
   * The ensemble against GARCH(1,1), HAR-RV, the EWMA random walk and the calibrated reference: CRPS skill and
   * Diebold–Mariano (HAC) on the same scored forecasts (references/index.ts).
   */
  strongReferences?: StrongReferencesReport;
  /** Rolling coverage of the ensemble's 80 % interval, one point per `coverageEvery` forecasts. */
  coverageSeries: { t: number; coverage80: number; coverage90: number }[];
}

export interface BacktestReport {
  symbol: string;
  modelVersion: string;
  /** The design switches this run used instead of the production defaults (absent: the production model). */
  tuning?: { all?: Partial<EngineTuning> } & Partial<Record<Horizon, Partial<EngineTuning>>>;
  barMs: number;
  stepMs: number;
  basket: string[];
  funding: boolean;
  from: string;
  to: string;
  forecastsMade: number;
  elapsedMs: number;
  horizons: Partial<Record<Horizon, HorizonReport>>;
}

/** What the walk gathered for one horizon: the score accumulators and the scored forecasts' times, means and σ. */
export interface HorizonTally {
  acc: Map<ForecasterName, ScoreAccumulator>;
  warmupDropped: number;
  unscored: number;
  /** The ensemble's ACI level for its 80 % interval: last value, total variation, first and last time. */
  aci: { last: number; total: number; t0: number; t1: number };
  /** Kept for the leakage check; absent when it is off. */
  compact: Compact[] | undefined;
  times: number[];
  means: number[];
  sigmas: number[];
  levels: LevelTally;
}

/** A horizon's part of the report, from what the walk gathered and the model's final state (undefined: < 2 scored). */
export function horizonReport(
  h: Horizon,
  tally: HorizonTally,
  model: SymbolForecaster['models'][Horizon],
  options: { stepMs: number; seed: number; replications: number },
): HorizonReport | undefined {
  const { stepMs } = options;
  const a = tally.acc;
  const overlap = Math.max(1, Math.round(HORIZON_MS[h] / stepMs));
  const refs = {
    ewma: a.get('rw_ewma')!,
    randomWalk: a.get('random_walk')!,
    reference: a.get('reference')!,
  };
  const forecasters = {} as Record<ForecasterName, ForecasterMetrics>;
  if (a.get('ensemble')!.count < 2) return undefined;
  for (const name of FORECASTERS) forecasters[name] = summarize(a.get(name)!, refs, overlap);
  const w = model.weights.weights;
  const s = tally.aci;
  const world = calibratedWorld({
    t: tally.times,
    mu: tally.means,
    sigma: tally.sigmas,
    stepMs,
    horizonMs: HORIZON_MS[h],
    replications: options.replications,
    seed: options.seed,
    levelSigmas: LEVEL_SIGMAS,
  });
  return {
    horizon: h,
    count: a.get('ensemble')!.count,
    warmupDropped: tally.warmupDropped,
    unscored: tally.unscored,
    aciAdaptationPerHour: s.t1 > s.t0 ? s.total / ((s.t1 - s.t0) / 3_600_000) : 0,
    finalSigmaSlope: model.sigmaSlope.beta,
    finalShrinkage: {
      ...Object.fromEntries(FACTORS.map((f, k) => [f, model.memberShrink[k]!.factor])),
      ensemble: model.tuning.ensembleShrink ? model.ensembleShrink.factor : 1,
    },
    forecasters,
    finalWeights: { ...Object.fromEntries(FACTORS.map((f, k) => [f, w[k]!])), zero: w[ZERO_EXPERT]! },
    finalSigmaWeights: Object.fromEntries(
      SIGMA_CANDIDATES.slice(0, model.sigmaPool.size).map((c, k) => [c, model.sigmaPool.weights[k]!]),
    ),
    leakage: tally.compact ? leakageCheck(tally.compact, stepMs, options.seed) : undefined,
    calibratedWorld: world,
    levels: withWorld(tally.levels.report(), world),
    coverageSeries: coverageSeries(a.get('ensemble')!, tally.times),
  };
}

/** Puts the calibrated world's ECE range beside each level's measured ECE, with pass: ECE ≤ the world's p95. */
function withWorld(levels: LevelReport[], world: CalibratedWorld | undefined): LevelReport[] {
  const judge = (
    c: ProbabilityCalibration | undefined,
    range: CalibratedWorld['eceEqualMass'] | undefined,
  ) => {
    if (c && range) c.world = { ...range, pass: c.eceEqualMass <= range.p95 };
  };
  for (const l of levels) {
    const w = world?.levels?.find((x) => x.sigmas === l.sigmas);
    judge(l.endAbove, w?.endAbove);
    judge(l.touch, w?.touch);
    judge(l.touchReflection, w?.touch);
  }
  return levels;
}

function coverageSeries(a: ScoreAccumulator, times: number[]): HorizonReport['coverageSeries'] {
  const n = a.count;
  const chunk = Math.max(50, Math.floor(n / 60));
  const out: HorizonReport['coverageSeries'] = [];
  for (let s = 0; s + chunk <= n; s += chunk) {
    let c8 = 0;
    let c9 = 0;
    for (let k = s; k < s + chunk; k++) {
      c8 += a.cover80[k]!;
      c9 += a.cover90[k]!;
    }
    out.push({ t: times[s + chunk - 1]!, coverage80: c8 / chunk, coverage90: c9 / chunk });
  }
  return out;
}
