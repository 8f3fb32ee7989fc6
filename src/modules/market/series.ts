import type { Candle } from './candles.ts';

/** An in-memory, bounded, time-ordered candle series (oldest first). */
export class CandleSeries {
  private items: Candle[] = [];

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.items.length;
  }
  get first(): Candle | undefined {
    return this.items[0];
  }
  get last(): Candle | undefined {
    return this.items[this.items.length - 1];
  }

  /** Appends (or replaces the bar with the same open time); drops the oldest beyond capacity. */
  push(c: Candle): void {
    const items = this.items;
    const last = items[items.length - 1];
    if (last === undefined || c.openTime > last.openTime) items.push(c);
    else {
      const i = this.lowerBound(c.openTime);
      if (items[i]?.openTime === c.openTime) items[i] = c;
      else items.splice(i, 0, c);
    }
    if (items.length > this.capacity * 1.25) items.splice(0, items.length - this.capacity);
  }

  /** Bulk load, sorted, replacing the content. */
  load(candles: readonly Candle[]): void {
    this.items = candles.slice(Math.max(0, candles.length - this.capacity));
  }

  /** Index of the first bar with openTime ≥ t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.openTime < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  range(fromMs: number, toMs: number, limit: number): Candle[] {
    const out: Candle[] = [];
    for (let i = this.lowerBound(fromMs); i < this.items.length && out.length < limit; i++) {
      const c = this.items[i]!;
      if (c.openTime >= toMs) break;
      out.push(c);
    }
    return out;
  }

  lastN(n: number): Candle[] {
    return this.items.slice(Math.max(0, this.items.length - n));
  }

  /** The bar containing or last before `t`. */
  at(t: number): Candle | undefined {
    const i = this.lowerBound(t + 1);
    return this.items[i - 1];
  }

  /** Iterates bars with openTime ≥ fromMs. */
  *since(fromMs: number): Iterable<Candle> {
    for (let i = this.lowerBound(fromMs); i < this.items.length; i++) yield this.items[i]!;
  }
}
