import { GRID } from '../calibration/conformal.ts';
import type { CalibrationGrid } from '../calibration/grid.ts';
import type { SigmaBins } from '../calibration/sigma-bins.ts';
import type { EngineTuning } from '../models/tuning.ts';
import { layerOf, newCalibrationGrid, newSigmaBins, newView, type View } from '../models/views.ts';

/** A zero-mean forecast's quantiles and what its layer needs back when the outcome is known. */
export interface CalibratedForecast {
  /** Forecast time (the calibration grid admits its outcome to the windows or not). */
  t: number;
  sigma: number;
  bin: number;
  pooled: boolean;
  quantiles: Float64Array;
}

/**
 * A zero-mean forecaster with its own σ passed through the conformal layer the engine gives its views (the
 * same window, calibration grid, ACI step and Mondrian σ-tercile layers, built by the engine's own factories): the strong
 * references are compared with the ensemble on calibrated quantiles, as the calibrated reference is.
 */
export class CalibratedZeroMean {
  private readonly view: View;
  private readonly bins: SigmaBins;
  private readonly grid: CalibrationGrid;

  constructor(stepMs: number, horizonMs: number, tuning: EngineTuning) {
    this.view = newView(stepMs, horizonMs, tuning);
    this.bins = newSigmaBins(stepMs, horizonMs, tuning);
    this.grid = newCalibrationGrid(stepMs, horizonMs);
  }

  /** Bytes of the residual and σ windows held now (the direction calibrator is never fed). */
  get heldBytes(): number {
    const { conformal, byBin } = this.view;
    return this.bins.heldBytes + conformal.heldBytes + byBin.reduce((sum, l) => sum + l.heldBytes, 0);
  }

  /** Bytes of those windows once full: the bound whatever the uptime. */
  get maxWindowBytes(): number {
    const { conformal, byBin } = this.view;
    return (
      this.bins.maxWindowBytes +
      conformal.maxWindowBytes +
      byBin.reduce((sum, l) => sum + l.maxWindowBytes, 0)
    );
  }

  forecast(sigma: number, t: number): CalibratedForecast {
    const bin = this.bins.bin(sigma);
    const layer = layerOf(this.view, bin);
    const quantiles = layer.quantiles(0, sigma, new Float64Array(GRID.length));
    return { t, sigma, bin, pooled: layer === this.view.conformal, quantiles };
  }

  /** Learns from a forecast whose horizon has passed (as the engine's views do, with no median shift). */
  learn(f: CalibratedForecast, y: number): void {
    if (!(f.sigma > 0) || !Number.isFinite(y)) return;
    const onGrid = this.grid.admits(f.t);
    const own = this.view.byBin[f.bin];
    if (own) {
      const q = f.pooled ? own.quantiles(0, f.sigma, new Float64Array(GRID.length)) : f.quantiles;
      own.adapt(y, q);
      if (onGrid) own.record(y, 0, f.sigma);
    }
    const q = f.pooled
      ? f.quantiles
      : this.view.conformal.quantiles(0, f.sigma, new Float64Array(GRID.length));
    this.view.conformal.adapt(y, q);
    if (onGrid) {
      this.view.conformal.record(y, 0, f.sigma);
      this.bins.add(f.sigma);
    }
  }
}
