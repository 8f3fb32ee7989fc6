import { GRID_INDEX } from '../calibration/conformal.ts';
import { endAboveProbability } from '../level-probability.ts';
import { type CalibrationBin, calibrationBinsEqualMass } from '../scoring/metrics.ts';
import { PUBLIC_QUANTILES } from '../types.ts';

/** Levels the backtester asks about, in predictive σ from the baseline (log price). */
export const LEVEL_SIGMAS = [-2, -1, -0.5, 0, 0.5, 1, 2] as const;

/** Calibration of one probability at one level: forecasts, mean probability, realized frequency, ECE. */
export interface ProbabilityCalibration {
  count: number;
  meanProbability: number;
  frequency: number;
  /** Ten equal-mass bins (deciles of the probability). */
  eceEqualMass: number;
  bins: CalibrationBin[];
}

export interface LevelReport {
  /** The level, in predictive σ above (+) or below (−) the baseline. */
  sigmas: number;
  /** P(price at the horizon > level), as GET /api/predictions/probability answers it. */
  endAbove: ProbabilityCalibration;
  /** P(touched before the horizon), on the bars' highs and lows; absent at 0 σ, where it is 1. */
  touch?: ProbabilityCalibration;
}

/**
 * Gathers, per level, the published probabilities and what happened; `report` is the reliability table. The
 * probabilities come from the same 19 published quantiles the API holds, so the table grades the API's answer.
 */
export class LevelTally {
  private readonly p = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly hit = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly pTouch = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly touched = LEVEL_SIGMAS.map(() => [] as number[]);

  /**
   * One scored forecast: its quantiles of the log return on the 99-level grid, σ, the realized log return,
   * and the highest and lowest log price over the horizon relative to the baseline (undefined: no path).
   */
  add(
    grid: ArrayLike<number>,
    sigma: number,
    y: number,
    path: { maxLog: number; minLog: number } | undefined,
  ): void {
    if (!(sigma > 0)) return;
    const logQ = PUBLIC_QUANTILES.map((p) => grid[GRID_INDEX(p)]!);
    LEVEL_SIGMAS.forEach((k, i) => {
      const x = k * sigma;
      const above = endAboveProbability(logQ, x);
      this.p[i]!.push(above);
      this.hit[i]!.push(y > x ? 1 : 0);
      if (k === 0 || !path) return;
      this.pTouch[i]!.push(Math.min(1, 2 * (x > 0 ? above : 1 - above)));
      this.touched[i]!.push((x > 0 ? path.maxLog >= x : path.minLog <= x) ? 1 : 0);
    });
  }

  report(): LevelReport[] {
    return LEVEL_SIGMAS.map((sigmas, i) => {
      const out: LevelReport = { sigmas, endAbove: calibrationOf(this.p[i]!, this.hit[i]!) };
      if (this.pTouch[i]!.length) out.touch = calibrationOf(this.pTouch[i]!, this.touched[i]!);
      return out;
    });
  }
}

function calibrationOf(p: readonly number[], hit: readonly number[]): ProbabilityCalibration {
  const n = p.length;
  const { bins, ece } = calibrationBinsEqualMass(p, hit);
  return {
    count: n,
    meanProbability: n ? p.reduce((s, x) => s + x, 0) / n : 0,
    frequency: n ? hit.reduce((s, x) => s + x, 0) / n : 0,
    eceEqualMass: ece,
    bins,
  };
}
