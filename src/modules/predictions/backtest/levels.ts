import type { PathExtremes, TouchExcursions } from '../calibration/touch.ts';
import { endAboveProbability, logQuantilesOfGrid, touchProbability } from '../level-probability.ts';
import { type CalibrationBin, calibrationBinsEqualMass } from '../scoring/metrics.ts';
import type { Spread } from './calibrated-world.ts';

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
  /**
   * The calibrated world's range of this ECE (an exactly right forecaster on this period's σ, means and overlap;
   * calibrated-world.ts) and whether the measured ECE is at most its 95th percentile.
   */
  world?: Spread & { pass: boolean };
}

export interface LevelReport {
  /** The level, in predictive σ above (+) or below (−) the baseline. */
  sigmas: number;
  /** P(price at the horizon > level), as GET /api/predictions/probability answers it. */
  endAbove: ProbabilityCalibration;
  /**
   * P(touched before the horizon), on the bars' highs and lows, as the API answers it at the forecast's time
   * (empirical excursions once enough outcomes had passed, else reflection); absent at 0 σ, where it is 1.
   */
  touch?: ProbabilityCalibration;
  /** Share of those touch answers that were empirical (the rest: reflection while too few outcomes were held). */
  touchEmpiricalShare?: number;
  /** The reflection principle's answer on the same forecasts, for comparison (the pre-1.7 answer). */
  touchReflection?: ProbabilityCalibration;
}

/**
 * The touch probabilities of a forecast at LEVEL_SIGMAS (NaN at 0 σ), as the API would answer them at the
 * forecast's time from `excursions` (what had been learned by then), and whether they were empirical.
 */
export function touchAtLevels(
  grid: ArrayLike<number>,
  sigma: number,
  excursions: TouchExcursions,
): { p: Float32Array; empirical: boolean } {
  const logQ = logQuantilesOfGrid(grid);
  const p = new Float32Array(LEVEL_SIGMAS.length);
  let empirical = false;
  LEVEL_SIGMAS.forEach((k, i) => {
    if (k === 0) {
      p[i] = Number.NaN;
      return;
    }
    const x = k * sigma;
    const above = endAboveProbability(logQ, x);
    const t = touchProbability(x, x > 0 ? above : 1 - above, excursions);
    p[i] = t.p;
    empirical = t.method === 'empirical';
  });
  return { p, empirical };
}

/**
 * Gathers, per level, the published probabilities and what happened; `report` is the reliability table. The
 * probabilities come from the same 19 published quantiles the API holds, so the table grades the API's answer.
 */
export class LevelTally {
  private readonly p = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly hit = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly pTouch = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly pReflection = LEVEL_SIGMAS.map(() => [] as number[]);
  private readonly touched = LEVEL_SIGMAS.map(() => [] as number[]);
  private empirical = 0;

  /**
   * One scored forecast: its quantiles of the log return on the 99-level grid, σ, the realized log return, the
   * highest and lowest log price over the horizon relative to the baseline (undefined: no path), and the touch
   * probabilities answered at its time (touchAtLevels; absent: reflection).
   */
  add(
    grid: ArrayLike<number>,
    sigma: number,
    y: number,
    path: PathExtremes | undefined,
    touch?: { p: ArrayLike<number>; empirical: boolean },
  ): void {
    if (!(sigma > 0)) return;
    const logQ = logQuantilesOfGrid(grid);
    if (path && touch?.empirical) this.empirical++;
    LEVEL_SIGMAS.forEach((k, i) => {
      const x = k * sigma;
      const above = endAboveProbability(logQ, x);
      this.p[i]!.push(above);
      this.hit[i]!.push(y > x ? 1 : 0);
      if (k === 0 || !path) return;
      const reflection = Math.min(1, 2 * (x > 0 ? above : 1 - above));
      this.pReflection[i]!.push(reflection);
      this.pTouch[i]!.push(touch ? touch.p[i]! : reflection);
      this.touched[i]!.push((x > 0 ? path.maxLog >= x : path.minLog <= x) ? 1 : 0);
    });
  }

  report(): LevelReport[] {
    return LEVEL_SIGMAS.map((sigmas, i) => {
      const out: LevelReport = { sigmas, endAbove: calibrationOf(this.p[i]!, this.hit[i]!) };
      const n = this.pTouch[i]!.length;
      if (n) {
        out.touch = calibrationOf(this.pTouch[i]!, this.touched[i]!);
        out.touchEmpiricalShare = this.empirical / n;
        out.touchReflection = calibrationOf(this.pReflection[i]!, this.touched[i]!);
      }
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
