import { RollingWindow, float64, uint8 } from './rolling-window.ts';

/**
 * Probability calibration by isotonic regression (pool-adjacent-violators), fitted walk-forward: it only
 * ever sees (score, outcome) pairs whose horizon has passed, over a rolling window, and is refitted every
 * `refitEvery` new pairs. Each pooled block is shrunk towards `toward` (the engine uses 0.5, the coin flip)
 * or, if absent, the window's overall hit rate, with `prior` pseudo-observations so a small block cannot
 * claim certainty; overlapping horizons make neighbouring
 * outcomes near-duplicates, so callers scale `prior` with the overlap. Until `minCount` pairs exist the
 * answer is 0.5.
 */
export class IsotonicCalibrator {
  private readonly scores: RollingWindow<Float64Array>;
  private readonly hits: RollingWindow<Uint8Array>;
  private sinceFit = 0;
  private step: IsotonicStep = NOT_FITTED;

  constructor(
    readonly window = 5000,
    readonly refitEvery = 250,
    readonly minCount = 300,
    readonly prior = 20,
    /** Shrink blocks toward this probability instead of the window's hit rate (e.g. 0.5, the coin flip). */
    readonly toward?: number,
  ) {
    this.scores = new RollingWindow(window, float64);
    this.hits = new RollingWindow(window, uint8);
  }

  /** Bytes of the windows and the fitted blocks as held now. */
  get heldBytes(): number {
    return this.scores.heldBytes + this.hits.heldBytes + stepBytes(this.step);
  }

  /** Whether the first fit has happened (until then every answer is 0.5). */
  get fitted(): boolean {
    return this.step.edges.length > 0;
  }

  add(score: number, hit: boolean): void {
    this.scores.add(score);
    this.hits.add(hit ? 1 : 0);
    if (++this.sinceFit >= this.refitEvery && this.scores.size >= this.minCount) this.fit();
  }

  /** Calibrated probability for a score (non-decreasing in the score). */
  predict(score: number): number {
    return predictStep(this.step, score);
  }

  fit(): void {
    this.sinceFit = 0;
    const n = this.scores.size;
    const { scores, hits } = this;
    const order = ascendingOrder(n, (k) => scores.at(k));
    let total = 0;
    for (let k = 0; k < n; k++) total += hits.at(k);
    this.step = fitStep(
      order.map((k) => scores.at(k)),
      order.map((k) => hits.at(k)),
      this.prior,
      this.toward ?? total / n,
    );
  }
}

/** Positions 0…n−1 ordered by `key`, ties in position order (the sort is stable). */
export function ascendingOrder(n: number, key: (k: number) => number): number[] {
  const order = new Array<number>(n);
  for (let k = 0; k < n; k++) order[k] = k;
  return order.sort((a, b) => key(a) - key(b));
}

/** A fitted isotonic step function: the lower edge of each pooled block and its probability. */
export interface IsotonicStep {
  edges: Float64Array;
  values: Float64Array;
}

/** The step function before the first fit: every answer is 0.5. */
export const NOT_FITTED: IsotonicStep = { edges: new Float64Array(0), values: new Float64Array(0) };

export const stepBytes = (step: IsotonicStep): number => step.edges.byteLength + step.values.byteLength;

/**
 * The isotonic fit of outcomes `y` (0/1) on scores `x` sorted ascending: PAVA's blocks, each shrunk toward
 * `base` with `prior` pseudo-observations.
 */
export function fitStep(
  x: readonly number[],
  y: readonly number[],
  prior: number,
  base: number,
): IsotonicStep {
  const fitted = pava(x, y);
  const edges = new Float64Array(fitted.length);
  const values = new Float64Array(fitted.length);
  fitted.forEach((block, k) => {
    edges[k] = block.lower;
    values[k] = (block.sum + base * prior) / (block.count + prior);
  });
  return { edges, values };
}

/** The step function's value at `score` (non-decreasing in the score); 0.5 before the first fit. */
export function predictStep(step: IsotonicStep, score: number): number {
  const { edges, values } = step;
  const n = edges.length;
  if (n === 0) return 0.5;
  if (score < edges[0]!) return values[0]!;
  // Last block whose lower edge ≤ score.
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid]! <= score) lo = mid;
    else hi = mid - 1;
  }
  return values[lo]!;
}

export interface PavaBlock {
  lower: number;
  sum: number;
  count: number;
}

/** Pool adjacent violators on y sorted by x: blocks of non-decreasing means; equal x share a block. */
export function pava(x: readonly number[], y: readonly number[]): PavaBlock[] {
  const blocks: PavaBlock[] = [];
  for (let k = 0; k < x.length; k++) {
    const last = blocks[blocks.length - 1];
    if (last && x[k] === x[k - 1]) {
      last.sum += y[k]!;
      last.count++;
    } else blocks.push({ lower: x[k]!, sum: y[k]!, count: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.sum / a.count <= b.sum / b.count) break;
      a.sum += b.sum;
      a.count += b.count;
      blocks.pop();
    }
  }
  return blocks;
}
