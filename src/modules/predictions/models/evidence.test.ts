import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { normQuantile } from '../math.ts';
import { EvidenceShrinkage } from './evidence.ts';

const gauss = (rand: () => number) => normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12));

function run(beta: number, seed: number, n = 20_000): EvidenceShrinkage {
  const rand = mulberry32(seed);
  const e = new EvidenceShrinkage(1 - 1 / 50_000, 1, 1);
  for (let i = 0; i < n; i++) {
    const m = 0.1 * gauss(rand);
    e.update(m, beta * m + gauss(rand));
  }
  return e;
}

describe('evidence shrinkage', () => {
  it('drops a mean with no out-of-sample skill (mostly to exactly 0) and keeps one with skill', () => {
    const noSkill = Array.from({ length: 20 }, (_, k) => run(0, k + 1).factor);
    expect(noSkill.filter((f) => f === 0).length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...noSkill)).toBeLessThan(0.6);
    const skill = run(0.8, 3).factor;
    expect(skill).toBeGreaterThan(0.6);
    expect(skill).toBeLessThanOrEqual(1);
  });

  it('needs more evidence when outcomes overlap', () => {
    const rand = mulberry32(9);
    const single = new EvidenceShrinkage(1, 1, 1);
    const overlapping = new EvidenceShrinkage(1, 12, 1);
    for (let i = 0; i < 5000; i++) {
      const m = 0.1 * gauss(rand);
      const y = 0.5 * m + gauss(rand);
      single.update(m, y);
      overlapping.update(m, y);
    }
    expect(Math.abs(overlapping.t)).toBeCloseTo(Math.abs(single.t) / Math.sqrt(12), 6);
    expect(overlapping.factor).toBeLessThan(single.factor);
  });
});
