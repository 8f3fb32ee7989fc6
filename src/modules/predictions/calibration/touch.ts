import { float32, RollingWindow } from './rolling-window.ts';

/**
 * Walk-forward distribution of how far the price path goes before the horizon, for the touch probability of
 * a level (docs/forecasting.md, "Probability of a level"). Each scored outcome adds the rank of the path's
 * highest and lowest log price under the forecast's own end distribution, u↑ = P(end ≥ max) and
 * u↓ = P(end ≤ min); the path reaches ℓ above the baseline iff u↑ ≤ P(end ≥ ℓ), so P(touch ℓ) is the share of
 * held outcomes with u↑ ≤ P(end ≥ ℓ) (below: u↓ ≤ P(end ≤ ℓ)). The reflection principle says that share is
 * 2 P(end ≥ ℓ); the window measures it, each forecast's drift, skew and spread kept in its ranks.
 */

/** Outcomes held per horizon and side (float32: 8 KB a side, twice that with the sorted copy). */
export const TOUCH_WINDOW = 2048;
/** At most this many outcomes per horizon length are held, so the window spans ≈ 680 independent horizons. */
export const TOUCH_SAMPLES_PER_HORIZON = 3;
/** Below this many held outcomes (≈ 100 independent horizons) the reflection principle answers instead. */
export const TOUCH_MIN_OUTCOMES = 300;

/** A rolling window of numbers kept also in ascending order, so the share at or below a value is a binary search. */
export class SortedWindow {
  private readonly ring: RollingWindow<Float32Array>;
  private sorted = new Float32Array(0);
  private n = 0;

  constructor(readonly capacity: number) {
    this.ring = new RollingWindow(capacity, float32);
  }

  get size(): number {
    return this.n;
  }

  add(value: number): void {
    const v = Math.fround(value);
    const evicted = this.ring.oldest;
    this.ring.add(v);
    if (evicted !== undefined) {
      const at = this.firstAtLeast(evicted);
      this.sorted.copyWithin(at, at + 1, this.n);
      this.n--;
    } else if (this.n === this.sorted.length) {
      const grown = new Float32Array(Math.min(this.capacity, Math.max(64, 2 * this.n)));
      grown.set(this.sorted);
      this.sorted = grown;
    }
    const at = this.firstAtLeast(v);
    this.sorted.copyWithin(at + 1, at, this.n);
    this.sorted[at] = v;
    this.n++;
  }

  /** Share of the held numbers ≤ x. */
  shareAtMost(x: number): number {
    return this.n ? this.firstAbove(Math.fround(x)) / this.n : Number.NaN;
  }

  private firstAtLeast(x: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private firstAbove(x: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Where the price path went between a forecast and its horizon: log high and log low over the baseline. */
export interface PathExtremes {
  maxLog: number;
  minLog: number;
}

/** A path's extremes ranked under its forecast's end distribution: P(end ≥ max) and P(end ≤ min). */
export interface PathRanks {
  up: number;
  down: number;
}

/** One horizon's excursions: fed with outcomes once their horizon has passed, asked at forecast time. */
export class TouchExcursions {
  private readonly up = new SortedWindow(TOUCH_WINDOW);
  private readonly down = new SortedWindow(TOUCH_WINDOW);
  private readonly spacingMs: number;
  private last = Number.NEGATIVE_INFINITY;

  constructor(horizonMs: number) {
    this.spacingMs = horizonMs / TOUCH_SAMPLES_PER_HORIZON;
  }

  /** Outcomes held (the same on both sides). */
  get size(): number {
    return this.up.size;
  }

  /**
   * One scored outcome: the forecast's time and its path's ranks. Outcomes come in order of forecast time; one
   * less than the spacing after the last one held is left out.
   */
  add(t: number, ranks: PathRanks): void {
    if (t < this.last + this.spacingMs || !(ranks.up >= 0) || !(ranks.down >= 0)) return;
    this.last = t;
    this.up.add(ranks.up);
    this.down.add(ranks.down);
  }

  /**
   * P(the path reaches a level above (`up`) or below the baseline) given `beyond`, the forecast's P(end beyond
   * the level); undefined until enough outcomes are held.
   */
  probability(beyond: number, up: boolean): number | undefined {
    if (this.size < TOUCH_MIN_OUTCOMES) return undefined;
    return (up ? this.up : this.down).shareAtMost(beyond);
  }
}

/** A symbol's excursions per horizon, created on first use. */
export class TouchCalibrator<H extends string = string> {
  private readonly byHorizon = new Map<H, TouchExcursions>();

  constructor(private readonly horizonMs: (h: H) => number) {}

  of(h: H): TouchExcursions {
    let e = this.byHorizon.get(h);
    if (!e) {
      e = new TouchExcursions(this.horizonMs(h));
      this.byHorizon.set(h, e);
    }
    return e;
  }

  /** Without creating one: what the API reads (undefined: nothing learned for that horizon here). */
  peek(h: H): TouchExcursions | undefined {
    return this.byHorizon.get(h);
  }
}
