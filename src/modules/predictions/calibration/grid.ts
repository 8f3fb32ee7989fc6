const MINUTE = 60_000;

/**
 * Spacing in time of the forecasts whose outcomes enter the calibration windows: a third of the horizon, at
 * most 15 minutes, never below the step. Outcomes of overlapping horizons a minute apart are nearly the same
 * number (a 6h outcome shares all but a minute with the next one); three grid outcomes per horizon still
 * overlap, and 15 minutes keep 960 residuals in a 10-day window. 15m: 5 min, 1h and 6h: 15 min.
 */
export function calibrationSpacingMs(stepMs: number, horizonMs: number): number {
  return Math.max(stepMs, Math.min(horizonMs / 3, 15 * MINUTE));
}

/**
 * Admits the first scored forecast of each slot of `spacingMs` in time (forecast time ⌊t / spacing⌋), later
 * slots only: a forecast a minute that starts off the grid, skips the grid time or is scored late still
 * enters once per slot. At a step ≥ the spacing every forecast is admitted.
 */
export class CalibrationGrid {
  private lastSlot = Number.NEGATIVE_INFINITY;

  constructor(readonly spacingMs: number) {}

  admits(t: number): boolean {
    const slot = Math.floor(t / this.spacingMs);
    if (slot <= this.lastSlot) return false;
    this.lastSlot = slot;
    return true;
  }
}
