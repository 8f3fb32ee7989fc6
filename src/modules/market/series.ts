import type { Candle } from './candles.ts';

/** Numbers per bar, in this order: openTime, open, high, low, close, volume, quoteVolume. */
const FIELDS = 7;

/**
 * An in-memory, bounded, time-ordered candle series (oldest first).
 *
 * The bars are kept as rows of one Float64Array, not as objects: a month of minutes for a few symbols is
 * hundreds of thousands of bars, and as objects (each with seven boxed numbers) they were most of the
 * objects in the heap, which every major collection marked and which made every minor one slower
 * (docs/adr/0016-candles-off-heap.md). Reads hand out fresh `Candle` objects, so a caller
 * cannot change a stored bar by changing what it was given.
 */
export class CandleSeries {
  private rows = new Float64Array(0);
  private n = 0;
  /** Bars held at most: the capacity plus the 25 % slack that lets trimming happen once in a while. */
  private readonly maxRows: number;

  constructor(readonly capacity: number) {
    this.maxRows = Math.floor(capacity * 1.25) + 1;
  }

  get length(): number {
    return this.n;
  }
  /** Bytes of bar storage held (the memory bound of a symbol's window is the sum over its series). */
  get heldBytes(): number {
    return this.rows.byteLength;
  }
  /** The most bytes this series can hold: the capacity, its trimming slack, seven numbers a bar. */
  get maxBytes(): number {
    return this.maxRows * FIELDS * Float64Array.BYTES_PER_ELEMENT;
  }
  get first(): Candle | undefined {
    return this.n ? this.bar(0) : undefined;
  }
  get last(): Candle | undefined {
    return this.n ? this.bar(this.n - 1) : undefined;
  }

  /** Appends (or replaces the bar with the same open time); drops the oldest beyond capacity. */
  push(c: Candle): void {
    const n = this.n;
    if (n === 0 || c.openTime > this.openTimeAt(n - 1)) {
      this.reserve(n + 1);
      this.write(n, c);
      this.n = n + 1;
    } else {
      const i = this.lowerBound(c.openTime);
      if (i < n && this.openTimeAt(i) === c.openTime) this.write(i, c);
      else {
        this.reserve(n + 1);
        this.rows.copyWithin((i + 1) * FIELDS, i * FIELDS, n * FIELDS);
        this.write(i, c);
        this.n = n + 1;
      }
    }
    if (this.n > this.capacity * 1.25) {
      this.rows.copyWithin(0, (this.n - this.capacity) * FIELDS, this.n * FIELDS);
      this.n = this.capacity;
    }
  }

  /** Bulk load, sorted, replacing the content. */
  load(candles: readonly Candle[]): void {
    const from = Math.max(0, candles.length - this.capacity);
    this.n = 0;
    this.reserve(candles.length - from);
    for (let i = from; i < candles.length; i++) this.write(i - from, candles[i]!);
    this.n = candles.length - from;
  }

  /** Index of the first bar with openTime ≥ t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.openTimeAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  range(fromMs: number, toMs: number, limit: number): Candle[] {
    const out: Candle[] = [];
    for (let i = this.lowerBound(fromMs); i < this.n && out.length < limit; i++) {
      if (this.openTimeAt(i) >= toMs) break;
      out.push(this.bar(i));
    }
    return out;
  }

  /** The newest `n` bars, oldest first; with `after`, only those that open after it. */
  lastN(n: number, after = Number.NEGATIVE_INFINITY): Candle[] {
    const out: Candle[] = [];
    const from = Math.max(0, this.n - n, after === Number.NEGATIVE_INFINITY ? 0 : this.lowerBound(after + 1));
    for (let i = from; i < this.n; i++) out.push(this.bar(i));
    return out;
  }

  /** The bar containing or last before `t`. */
  at(t: number): Candle | undefined {
    const i = this.lowerBound(t + 1);
    return i > 0 ? this.bar(i - 1) : undefined;
  }

  /** Iterates bars with openTime ≥ fromMs. */
  *since(fromMs: number): Iterable<Candle> {
    for (let i = this.lowerBound(fromMs); i < this.n; i++) yield this.bar(i);
  }

  private openTimeAt(i: number): number {
    return this.rows[i * FIELDS]!;
  }

  private bar(i: number): Candle {
    const r = this.rows;
    const o = i * FIELDS;
    return {
      openTime: r[o]!,
      open: r[o + 1]!,
      high: r[o + 2]!,
      low: r[o + 3]!,
      close: r[o + 4]!,
      volume: r[o + 5]!,
      quoteVolume: r[o + 6]!,
    };
  }

  private write(i: number, c: Candle): void {
    const r = this.rows;
    const o = i * FIELDS;
    r[o] = c.openTime;
    r[o + 1] = c.open;
    r[o + 2] = c.high;
    r[o + 3] = c.low;
    r[o + 4] = c.close;
    r[o + 5] = c.volume;
    r[o + 6] = c.quoteVolume;
  }

  /** Room for `rows` bars, growing the buffer geometrically up to `maxRows`. */
  private reserve(rows: number): void {
    const held = this.rows.length / FIELDS;
    if (rows <= held) return;
    const next = Math.min(this.maxRows, Math.max(rows, 64, held * 2));
    const grown = new Float64Array(next * FIELDS);
    grown.set(this.rows.subarray(0, this.n * FIELDS));
    this.rows = grown;
  }
}
