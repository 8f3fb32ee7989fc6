import { describe, expect, it } from 'vitest';
import { CalibrationGrid, calibrationSpacingMs } from './grid.ts';

const MIN = 60_000;

describe('calibration grid', () => {
  it('spaces a third of the horizon, at most 15 minutes, never below the step', () => {
    expect(calibrationSpacingMs(MIN, 15 * MIN)).toBe(5 * MIN);
    expect(calibrationSpacingMs(MIN, 60 * MIN)).toBe(15 * MIN);
    expect(calibrationSpacingMs(MIN, 360 * MIN)).toBe(15 * MIN);
    expect(calibrationSpacingMs(5 * MIN, 15 * MIN)).toBe(5 * MIN);
    expect(calibrationSpacingMs(30 * MIN, 360 * MIN)).toBe(30 * MIN);
  });

  it('admits the first forecast of each slot: on the grid at aligned minutes, once per slot when off it', () => {
    const aligned = new CalibrationGrid(5 * MIN);
    const admitted = [];
    for (let k = 0; k < 20; k++) if (aligned.admits(k * MIN)) admitted.push(k);
    expect(admitted).toEqual([0, 5, 10, 15]);

    // Times off the minute, a missing grid time (10) and an outcome scored late (an older slot).
    const off = new CalibrationGrid(5 * MIN);
    const t = [1.3, 2.3, 6.3, 7.3, 11.3, 12.3, 3.3, 15.3].map((m) => m * MIN);
    expect(t.map((x) => off.admits(x))).toEqual([true, false, true, false, true, false, false, true]);
  });

  it('admits every forecast at a step of at least the spacing', () => {
    const grid = new CalibrationGrid(5 * MIN);
    for (let k = 0; k < 50; k++) expect(grid.admits(1234 + k * 5 * MIN)).toBe(true);
  });
});
