import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { normQuantile } from '../math.ts';
import { ConformalQuantiles, GRID, GRID_INDEX } from './conformal.ts';
import { SigmaBins } from './sigma-bins.ts';

describe('one conformal layer per σ tercile', () => {
  it('holds 80 % coverage within each tercile of a σ that overreacts, where one pooled layer does not', () => {
    const rand = mulberry32(21);
    const gauss = () => normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12));
    const bins = new SigmaBins(3000, 100, 300);
    const byBin = [0, 1, 2].map(() => new ConformalQuantiles(2000, 0.005));
    const pooled = new ConformalQuantiles(2000, 0.005);
    const hits = { mondrian: [0, 0, 0], pooled: [0, 0, 0], n: [0, 0, 0] };
    const q = new Float64Array(GRID.length);
    const inside = (y: number) => (q[GRID_INDEX(0.1)]! <= y && y <= q[GRID_INDEX(0.9)]! ? 1 : 0);
    for (let i = 0; i < 30_000; i++) {
      // True scale varies ×4; the forecast σ exaggerates it (σ = true^1.6), as a fast σ does.
      const truth = 0.01 * Math.exp(0.7 * gauss());
      const sigma = 0.01 * (truth / 0.01) ** 1.6;
      const y = truth * gauss();
      const b = bins.bin(sigma);
      const layer = byBin[b]!.warm ? byBin[b]! : pooled;
      layer.quantiles(0, sigma, q);
      const m = inside(y);
      byBin[b]!.update(
        y,
        0,
        sigma,
        layer === pooled ? byBin[b]!.quantiles(0, sigma, new Float64Array(99)) : q,
      );
      pooled.quantiles(0, sigma, q);
      const p = inside(y);
      pooled.update(y, 0, sigma, q);
      bins.add(sigma);
      if (i < 5000) continue;
      hits.mondrian[b]! += m;
      hits.pooled[b]! += p;
      hits.n[b]!++;
    }
    for (let b = 0; b < 3; b++) {
      expect(hits.n[b]!).toBeGreaterThan(7000);
      expect(Math.abs(hits.mondrian[b]! / hits.n[b]! - 0.8)).toBeLessThan(0.015);
    }
    // Without the bins the low-σ tercile is under-covered and the high one over-covered.
    expect(hits.pooled[0]! / hits.n[0]!).toBeLessThan(0.77);
    expect(hits.pooled[2]! / hits.n[2]!).toBeGreaterThan(0.83);
  });
});
