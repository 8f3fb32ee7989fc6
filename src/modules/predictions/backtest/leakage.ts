import { mulberry32 } from '../../../shared/random.ts';
import { GRID } from '../calibration/conformal.ts';
import { crpsFromGrid, gaussianGrid } from '../scoring/metrics.ts';

export interface LeakageScore {
  hitRate: number;
  brierSkill: number;
  crpsSkillVsEwma: number;
  /** Against the calibrated zero-mean reference scored on the same outcomes: ≈ 0 without look-ahead. */
  crpsSkillVsReference: number;
}

export interface LeakageCheck {
  /** The ensemble scored against realized returns randomly permuted across time. */
  shuffled: LeakageScore;
  /** The ensemble scored against the return realized one day later than the one it forecast. */
  shiftedOneDay: LeakageScore;
}

/** What the leakage check keeps of each scored ensemble forecast (the reference's quantiles and the EWMA σ too). */
export interface Compact {
  t: number;
  median: number;
  conf: number;
  q: Float32Array;
  qRef: Float32Array;
  ewmaSigma: number;
  y: number;
}

/** Scores the same forecasts against outcomes they cannot know: a permutation and a one-day shift. */
export function leakageCheck(rows: Compact[], stepMs: number, seed: number): LeakageCheck {
  const score = (ys: number[], idx: number[]): LeakageScore => {
    let hits = 0;
    let brier = 0;
    let crps = 0;
    let crpsE = 0;
    let crpsR = 0;
    const g = new Float64Array(GRID.length);
    for (let k = 0; k < idx.length; k++) {
      const r = rows[idx[k]!]!;
      const y = ys[k]!;
      const hit = (r.median >= 0 ? y > 0 : y < 0) ? 1 : 0;
      hits += hit;
      brier += (r.conf - hit) ** 2;
      crps += crpsFromGrid(r.q, y);
      crpsR += crpsFromGrid(r.qRef, y);
      crpsE += crpsFromGrid(gaussianGrid(0, r.ewmaSigma, g), y);
    }
    const n = Math.max(idx.length, 1);
    return {
      hitRate: hits / n,
      brierSkill: 1 - brier / n / 0.25,
      crpsSkillVsEwma: 1 - crps / crpsE,
      crpsSkillVsReference: 1 - crps / crpsR,
    };
  };
  const rand = mulberry32(seed);
  const perm = rows.map((r) => r.y);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const all = rows.map((_, i) => i);
  const shift = Math.max(1, Math.round((24 * 60 * 60_000) / stepMs));
  const idx = all.slice(0, Math.max(0, rows.length - shift));
  const shifted = idx.map((i) => rows[i + shift]!.y);
  return { shuffled: score(perm, all), shiftedOneDay: score(shifted, idx) };
}
