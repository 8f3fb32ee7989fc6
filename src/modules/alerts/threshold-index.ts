/**
 * Rules on one numeric series (a symbol's price, a windowed volume, a flow sum), sorted by threshold so that a
 * move of the series from `a` to `b` visits only the rules whose threshold lies between `a` and `b` — the
 * rules whose condition flips. Cost per move: two binary searches per direction plus one step per flipped rule,
 * whatever the number of rules on the series.
 *
 * `up` rules hold when the value is above the threshold, `down` rules when it is below; strictly (`>`/`<`),
 * or inclusively (`≥`/`≤`) for an index built with `inclusive`.
 */
export type Sense = 'up' | 'down';

interface Entry<T> {
  threshold: number;
  item: T;
}

/** First index whose threshold is ≥ v. */
function lowerBound<T>(list: Entry<T>[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.threshold < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose threshold is > v, in a list sorted by threshold. */
export function upperBound(list: ReadonlyArray<{ threshold: number }>, v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.threshold <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class ThresholdIndex<T> {
  private readonly up: Entry<T>[] = [];
  private readonly down: Entry<T>[] = [];
  readonly inclusive: boolean;

  constructor(options: { inclusive?: boolean } = {}) {
    this.inclusive = options.inclusive ?? false;
  }

  get size(): number {
    return this.up.length + this.down.length;
  }

  /** Whether a rule of this sense and threshold holds at `value`. */
  holds(sense: Sense, threshold: number, value: number): boolean {
    if (sense === 'up') return this.inclusive ? value >= threshold : value > threshold;
    return this.inclusive ? value <= threshold : value < threshold;
  }

  add(sense: Sense, threshold: number, item: T): void {
    const list = sense === 'up' ? this.up : this.down;
    list.splice(upperBound(list, threshold), 0, { threshold, item });
  }

  remove(sense: Sense, threshold: number, item: T): boolean {
    const list = sense === 'up' ? this.up : this.down;
    for (let i = lowerBound(list, threshold); i < list.length && list[i]!.threshold === threshold; i++) {
      if (list[i]!.item === item) {
        list.splice(i, 1);
        return true;
      }
    }
    return false;
  }

  /**
   * Calls `visit(item, holdsNow)` for every rule whose condition differs between `from` and `to`: `true` for
   * rules that hold at `to` and did not at `from`, `false` for the reverse.
   */
  moved(from: number, to: number, visit: (item: T, holdsNow: boolean) => void): void {
    if (from === to) return;
    const rising = to > from;
    const low = rising ? from : to;
    const high = rising ? to : from;
    // up, strict (v > t): flips for low ≤ t < high; inclusive (v ≥ t): low < t ≤ high.
    const upBound = this.inclusive ? upperBound : lowerBound;
    for (let i = upBound(this.up, low), end = upBound(this.up, high); i < end; i++)
      visit(this.up[i]!.item, rising);
    // down, strict (v < t): flips for low < t ≤ high; inclusive (v ≤ t): low ≤ t < high.
    const downBound = this.inclusive ? lowerBound : upperBound;
    for (let i = downBound(this.down, low), end = downBound(this.down, high); i < end; i++)
      visit(this.down[i]!.item, !rising);
  }

  /** Calls `visit` for every rule that holds at `value`. */
  holdingAt(value: number, visit: (item: T) => void): void {
    const upEnd = this.inclusive ? upperBound(this.up, value) : lowerBound(this.up, value);
    for (let i = 0; i < upEnd; i++) visit(this.up[i]!.item);
    const downStart = this.inclusive ? lowerBound(this.down, value) : upperBound(this.down, value);
    for (let i = downStart; i < this.down.length; i++) visit(this.down[i]!.item);
  }

  /** Every rule, in no particular order. */
  forEach(visit: (item: T, sense: Sense, threshold: number) => void): void {
    for (const e of this.up) visit(e.item, 'up', e.threshold);
    for (const e of this.down) visit(e.item, 'down', e.threshold);
  }
}
