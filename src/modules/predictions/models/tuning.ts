import type { Horizon } from '../../identifiers/index.ts';
import { type SigmaCandidate, SIGMA_CANDIDATES, SIGMA_CANDIDATES_CLOSE } from './sigma-pool.ts';

/**
 * Fixed hyper-parameters, chosen a priori (not tuned on the evaluation period); see docs/forecasting.md.
 * Everything that depends on sampling is expressed in time and converted with the step size (or, for the
 * calibration windows, with the spacing of the calibration grid: calibration/grid.ts).
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

/** The tuning of one horizon: the defaults, the horizon's defaults, then the options' switches over them. */
export const tuningOf = (horizon: Horizon, options: EngineOptions): EngineTuning => ({
  ...DEFAULT_TUNING,
  ...DEFAULT_TUNING_BY_HORIZON[horizon],
  ...options.tuning,
  ...options.tuningByHorizon?.[horizon],
});
