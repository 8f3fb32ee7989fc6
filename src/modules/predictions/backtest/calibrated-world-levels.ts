import { mulberry32 } from '../../../shared/random.ts';
import { normCdf } from '../math.ts';
import { calibrationOverGroups, equalCountGroups } from '../scoring/metrics.ts';

/** The calibrated world's ECE spread of one level's probabilities (see calibrated-world.ts). */
export interface LevelWorld {
  sigmas: number;
  endAbove: number[];
  touch?: number[];
}

/** Drifts (mean over scale of the whole horizon) at which the touch table is simulated; beyond them, clamped. */
const DRIFTS = [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1];
const TABLE_PATHS = 20_000;

/**
 * P(max over the horizon's steps ≥ z) for a Gaussian walk of `overlap` equal steps with total mean d and total
 * variance 1: simulated once per drift of DRIFTS (common draws), interpolated linearly in d. What the world's
 * oracle publishes for touch: exact for the world's paths up to the table's sampling error (±0.004) and the
 * change of step variance within a horizon, which the table does not model.
 */
export function walkMaxTable(overlap: number, seed: number): (z: number, d: number) => number {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(rand() || Number.MIN_VALUE)) * Math.cos(2 * Math.PI * rand());
  const sorted = DRIFTS.map(() => new Float32Array(TABLE_PATHS));
  const w = new Float64Array(overlap + 1);
  const sd = 1 / Math.sqrt(overlap);
  for (let p = 0; p < TABLE_PATHS; p++) {
    for (let j = 1; j <= overlap; j++) w[j] = w[j - 1]! + sd * normal();
    DRIFTS.forEach((d, i) => {
      let max = Number.NEGATIVE_INFINITY;
      for (let j = 1; j <= overlap; j++) max = Math.max(max, w[j]! + (d * j) / overlap);
      sorted[i]![p] = max;
    });
  }
  for (const s of sorted) s.sort();
  const survival = (s: Float32Array, z: number) => {
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid]! < z) lo = mid + 1;
      else hi = mid;
    }
    return (s.length - lo) / s.length;
  };
  const step = DRIFTS[1]! - DRIFTS[0]!;
  return (z, d) => {
    const u = (Math.min(DRIFTS.at(-1)!, Math.max(DRIFTS[0]!, d)) - DRIFTS[0]!) / step;
    const i = Math.min(DRIFTS.length - 2, Math.floor(u));
    const f = u - i;
    return (1 - f) * survival(sorted[i]!, z) + f * survival(sorted[i + 1]!, z);
  };
}

/**
 * The level probabilities of the world's exactly right forecaster and their ECE on each drawn path. Levels sit
 * at multiples of the model's σ from the baseline, as in the report; the oracle knows each horizon's N(m, S²):
 * end above from it, touch from walkMaxTable on the world's own step path.
 */
export class WorldLevels {
  private readonly x: Float64Array[];
  private readonly pEnd: Float64Array[];
  private readonly pTouch: (Float64Array | undefined)[];
  private readonly groupsEnd: number[][][];
  private readonly groupsTouch: (number[][] | undefined)[];
  private readonly eceEnd: number[][];
  private readonly eceTouch: number[][];
  private readonly hit: Uint8Array;
  private readonly max: Float64Array;
  private readonly min: Float64Array;

  constructor(
    private readonly sigmas: readonly number[],
    m: Float64Array,
    s: Float64Array,
    modelSigma: ArrayLike<number>,
    private readonly overlap: number,
    seed: number,
  ) {
    const n = m.length;
    const table = walkMaxTable(overlap, seed ^ 0x5f3759df);
    this.x = sigmas.map((k) => Float64Array.from({ length: n }, (_, j) => k * modelSigma[j]!));
    this.pEnd = sigmas.map((_, i) =>
      Float64Array.from({ length: n }, (_, j) => 1 - normCdf((this.x[i]![j]! - m[j]!) / s[j]!)),
    );
    this.pTouch = sigmas.map((k, i) =>
      k === 0
        ? undefined
        : Float64Array.from({ length: n }, (_, j) => {
            const z = this.x[i]![j]! / s[j]!;
            const d = m[j]! / s[j]!;
            return k > 0 ? table(z, d) : table(-z, -d);
          }),
    );
    this.groupsEnd = this.pEnd.map((p) => equalCountGroups(p, 10));
    this.groupsTouch = this.pTouch.map((p) => p && equalCountGroups(p, 10));
    this.eceEnd = sigmas.map(() => []);
    this.eceTouch = sigmas.map(() => []);
    this.hit = new Uint8Array(n);
    this.max = new Float64Array(n);
    this.min = new Float64Array(n);
  }

  /** One drawn world: the log price path by step (start 0) and each forecast's first step. */
  add(path: Float64Array, startStep: Int32Array): void {
    const n = startStep.length;
    windowExtremes(path, startStep, this.overlap, this.max, this.min);
    this.sigmas.forEach((k, i) => {
      const x = this.x[i]!;
      for (let j = 0; j < n; j++) {
        const a = startStep[j]!;
        this.hit[j] = path[a + this.overlap]! - path[a]! > x[j]! ? 1 : 0;
      }
      this.eceEnd[i]!.push(calibrationOverGroups(this.groupsEnd[i]!, this.pEnd[i]!, this.hit).ece);
      const groups = this.groupsTouch[i];
      if (!groups) return;
      for (let j = 0; j < n; j++) {
        const a = startStep[j]!;
        this.hit[j] = (k > 0 ? this.max[j]! - path[a]! >= x[j]! : this.min[j]! - path[a]! <= x[j]!) ? 1 : 0;
      }
      this.eceTouch[i]!.push(calibrationOverGroups(groups, this.pTouch[i]!, this.hit).ece);
    });
  }

  result(): LevelWorld[] {
    return this.sigmas.map((sigmas, i) =>
      this.pTouch[i]
        ? { sigmas, endAbove: this.eceEnd[i]!, touch: this.eceTouch[i]! }
        : { sigmas, endAbove: this.eceEnd[i]! },
    );
  }
}

/**
 * Highest and lowest path value over steps (a, a + overlap] for each start a (ascending): monotonic deques, so
 * O(steps) for all forecasts however much their horizons overlap.
 */
export function windowExtremes(
  path: Float64Array,
  starts: Int32Array,
  overlap: number,
  max: Float64Array,
  min: Float64Array,
): void {
  const qMax = new Int32Array(path.length);
  const qMin = new Int32Array(path.length);
  let hMax = 0;
  let tMax = 0;
  let hMin = 0;
  let tMin = 0;
  let next = 1;
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k]!;
    const end = a + overlap;
    for (; next <= end; next++) {
      const v = path[next]!;
      while (tMax > hMax && path[qMax[tMax - 1]!]! <= v) tMax--;
      qMax[tMax++] = next;
      while (tMin > hMin && path[qMin[tMin - 1]!]! >= v) tMin--;
      qMin[tMin++] = next;
    }
    while (qMax[hMax]! <= a) hMax++;
    while (qMin[hMin]! <= a) hMin++;
    max[k] = path[qMax[hMax]!]!;
    min[k] = path[qMin[hMin]!]!;
  }
}
