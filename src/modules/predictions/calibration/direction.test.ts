import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consistentMedian, DirectionCalibrator } from './direction.ts';
import { IsotonicCalibrator } from './isotonic.ts';
import { mulberry32 } from '../../../shared/random.ts';

describe('direction calls', () => {
  it('for any calibrator state, confidence ≥ 0.5 and the published side is the side rated ≥ 0.5', () => {
    fc.assert(
      fc.property(
        // A history of (score, outcome) pairs: outcomes up, down or unchanged, with any dependence on score.
        fc.array(fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.integer({ min: -1, max: 1 })), {
          minLength: 0,
          maxLength: 400,
        }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 1e-4, max: 0.1, noNaN: true }),
        fc.integer({ min: 0, max: 200 }),
        (history, mu, sigma, prior) => {
          const cal = new DirectionCalibrator(300, 20, 30, prior);
          for (const [score, sign] of history) cal.add(score, sign);
          const call = cal.call(mu / sigma);
          const median = consistentMedian(mu * sigma, sigma, call);
          expect(call.confidence).toBeGreaterThanOrEqual(0.5);
          if (call.floored) {
            // No side is rated above 0.5: the forecast is flat, with the floor confidence.
            expect(median).toBe(0);
            expect(call.confidence).toBe(0.5);
          } else {
            const side = median >= 0 ? 1 : -1;
            expect(side).toBe(call.side);
            expect(side === 1 ? call.up : call.down).toBe(call.confidence);
            expect(call.confidence).toBeGreaterThanOrEqual(side === 1 ? call.down : call.up);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a call against the model mean moves the median just across the baseline, by the calibrated odds', () => {
    const cal = new DirectionCalibrator(2000, 100, 100, 0);
    // Outcomes fall more often than not whatever the score: the calibrator calls "down".
    for (let i = 0; i < 1000; i++) cal.add(((i * 37) % 200) / 100 - 1, i % 5 < 3 ? -1 : 1);
    const call = cal.call(0.3);
    expect(call.side).toBe(-1);
    expect(call.confidence).toBeCloseTo(0.6, 1);
    const median = consistentMedian(0.003, 0.01, call);
    expect(median).toBeLessThan(0);
    expect(median).toBeGreaterThan(-0.01);
  });

  it('one shared window answers exactly as the two isotonic calibrators it replaced (ties, unchanged prices)', () => {
    const rand = mulberry32(11);
    const cal = new DirectionCalibrator(700, 40, 120, 30);
    const up = new IsotonicCalibrator(700, 40, 120, 30, 0.5);
    const down = new IsotonicCalibrator(700, 40, 120, 30, 0.5);
    for (let i = 0; i < 1500; i++) {
      // Scores on a coarse grid (many ties, some zero), outcomes leaning with the score, some unchanged.
      const score = Math.round((rand() - 0.5) * 16) / 8;
      const u = rand();
      const y = u < 0.1 ? 0 : u < 0.55 + 0.1 * score ? 1 : -1;
      cal.add(score, y);
      up.add(score, y > 0);
      down.add(-score, y < 0);
      if (i % 7 === 0) {
        const probe = Math.round((rand() - 0.5) * 20) / 8;
        const call = cal.call(probe);
        expect([call.up, call.down]).toEqual([up.predict(probe), down.predict(-probe)]);
      }
    }
    expect(cal.fitted).toBe(true);
    expect(cal.windowBytes).toBe(cal.maxWindowBytes);
    expect(cal.maxWindowBytes).toBe(700 * 5);
  });
});
