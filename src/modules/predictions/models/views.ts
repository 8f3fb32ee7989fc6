import { ConformalQuantiles } from '../calibration/conformal.ts';
import { DirectionCalibrator } from '../calibration/direction.ts';
import { CalibrationGrid, calibrationSpacingMs, directionSpacingMs } from '../calibration/grid.ts';
import { SigmaBins } from '../calibration/sigma-bins.ts';
import type { Factor } from '../types.ts';
import type { EngineTuning } from './tuning.ts';

/** `reference`: the calibrated zero-mean forecast (same σ, its own conformal layer and calibrator, mean 0). */
export type ViewName = 'ensemble' | 'reference' | 'equal' | Factor;

export interface View {
  /** The conformal layer over all outcomes, and one per σ tercile (used once warm, `mondrian` only). */
  conformal: ConformalQuantiles;
  byBin: ConformalQuantiles[];
  direction: DirectionCalibrator;
}

const DAY_MS = 24 * 60 * 60_000;
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
/** A span of time in steps of `stepMs`, within [lo, hi]. */
export const steps = (ms: number, stepMs: number, lo: number, hi: number) =>
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

/** The outcomes of which forecasts enter a horizon's conformal and σ-bin windows. */
export const newCalibrationGrid = (stepMs: number, horizonMs: number): CalibrationGrid =>
  new CalibrationGrid(calibrationSpacingMs(stepMs, horizonMs));

/** The outcomes of which forecasts enter a horizon's direction windows. */
export const newDirectionGrid = (stepMs: number, horizonMs: number): CalibrationGrid =>
  new CalibrationGrid(directionSpacingMs(stepMs, horizonMs));

export const newView = (stepMs: number, horizonMs: number, tuning: EngineTuning): View => {
  const overlap = Math.max(1, horizonMs / stepMs);
  const spacing = calibrationSpacingMs(stepMs, horizonMs);
  const pairs = directionSpacingMs(stepMs, horizonMs);
  const layer = (windowMs: number) =>
    newConformal(stepMs, spacing, overlap, tuning.aciGammaFloorPerHour, windowMs);
  return {
    conformal: layer(tuning.conformalWindowMs),
    byBin: tuning.mondrian ? [0, 1, 2].map(() => layer(tuning.binWindowMs / 3)) : [],
    // The prior is in independent outcomes times the pairs per horizon (what the window counts).
    direction: new DirectionCalibrator(
      steps(tuning.calibrationWindowMs, pairs, 1000, 100_000),
      steps(CALIBRATION_REFIT_MS, pairs, 50, 5000),
      steps(CALIBRATION_MIN_MS, pairs, 100, 10_000),
      tuning.calibrationPriorOutcomes * Math.max(1, horizonMs / pairs),
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
