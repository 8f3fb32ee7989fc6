type Numbers = Float64Array | Float32Array | Uint8Array | Int8Array;

/**
 * The last `capacity` numbers added, oldest overwritten first, in a typed array that grows with what it holds
 * (doubling from 64, at most `capacity`) instead of being allocated whole up front. A model's windows span
 * up to 30 days of one-minute outcomes (43,200 numbers each, about fifty of them per symbol): allocated at
 * construction that was ≈ 7 MB a symbol before the first outcome. Positions are those of a ring of
 * `capacity`, so what is read in [0, size) is the same whether the buffer was allocated at once or grown.
 */
export class RollingWindow<T extends Numbers> {
  private buffer: T;
  private head = 0;
  private held = 0;

  constructor(
    readonly capacity: number,
    private readonly make: (length: number) => T,
  ) {
    this.buffer = make(Math.min(capacity, 64));
  }

  /** How many numbers are held (at most `capacity`). */
  get size(): number {
    return this.held;
  }

  /** Bytes of the buffer as allocated now. */
  get heldBytes(): number {
    return this.buffer.byteLength;
  }

  /** Bytes of the buffer once the window is full: the bound of what it ever holds. */
  get maxBytes(): number {
    return this.capacity * this.buffer.BYTES_PER_ELEMENT;
  }

  /** Once the window is full, the oldest number held (the one the next `add` overwrites); else undefined. */
  get oldest(): number | undefined {
    return this.held === this.capacity ? this.buffer[this.head] : undefined;
  }

  add(value: number): void {
    if (this.head === this.buffer.length && this.buffer.length < this.capacity) {
      const grown = this.make(Math.min(this.capacity, this.buffer.length * 2));
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.head] = value;
    this.head = (this.head + 1) % this.capacity;
    if (this.held < this.capacity) this.held++;
  }

  /** The number at position k (0 ≤ k < size): ring order, not the order of adding once the window is full. */
  at(k: number): number {
    return this.buffer[k]!;
  }

  /** The held numbers in ascending order (a new array). */
  sorted(): T {
    return this.buffer.slice(0, this.held).sort() as T;
  }
}

export const float64 = (length: number) => new Float64Array(length);
export const float32 = (length: number) => new Float32Array(length);
export const uint8 = (length: number) => new Uint8Array(length);
export const int8 = (length: number) => new Int8Array(length);
