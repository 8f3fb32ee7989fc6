import type { BookLike } from './consolidate.ts';
import type { BookDeltaEvent, BookSnapshotEvent, Level } from './ports.ts';

/**
 * One venue's L2 book, kept as two sorted arrays (bids descending, asks ascending) with binary-search
 * updates: books here have tens to a few hundred levels, where arrays beat trees. Deltas are
 * sequence-checked: a delta whose sequence is not exactly the next one puts the book in `gap` state, in
 * which it is not used until a snapshot arrives.
 */
export class OrderBook {
  bidPx: number[] = [];
  bidSz: number[] = [];
  askPx: number[] = [];
  askSz: number[] = [];
  sequence = -1;
  state: 'empty' | 'live' | 'gap' = 'empty';
  updatedAt = 0;

  applySnapshot(e: BookSnapshotEvent): void {
    this.bidPx = [];
    this.bidSz = [];
    this.askPx = [];
    this.askSz = [];
    for (const [p, s] of e.bids) if (s > 0) setLevel(this.bidPx, this.bidSz, p, s, true);
    for (const [p, s] of e.asks) if (s > 0) setLevel(this.askPx, this.askSz, p, s, false);
    this.sequence = e.sequence;
    this.state = 'live';
    this.updatedAt = e.receiveTime;
  }

  /** Applies a delta; returns false (and enters `gap`) when the sequence does not follow. */
  applyDelta(e: BookDeltaEvent): boolean {
    if (this.state !== 'live') return false;
    if (e.sequence !== this.sequence + 1) {
      if (e.sequence <= this.sequence) return true; // an old, already-applied delta: ignore
      this.state = 'gap';
      return false;
    }
    for (const [p, s] of e.bids) setLevel(this.bidPx, this.bidSz, p, s, true);
    for (const [p, s] of e.asks) setLevel(this.askPx, this.askSz, p, s, false);
    this.sequence = e.sequence;
    this.updatedAt = e.receiveTime;
    return true;
  }

  get bestBid(): number | undefined {
    return this.bidPx[0];
  }
  get bestAsk(): number | undefined {
    return this.askPx[0];
  }
  get mid(): number | undefined {
    const b = this.bidPx[0];
    const a = this.askPx[0];
    return b !== undefined && a !== undefined ? (a + b) / 2 : undefined;
  }

  /**
   * A copy of the book as it is now, which later deltas do not move: a snapshot's walks after its tick
   * (slippage for another notional, the followers' books) must see the book its mid was taken from.
   */
  frozen(): BookLike {
    return {
      bidPx: this.bidPx.slice(),
      bidSz: this.bidSz.slice(),
      askPx: this.askPx.slice(),
      askSz: this.askSz.slice(),
    };
  }

  levels(side: 'bid' | 'ask'): Level[] {
    const px = side === 'bid' ? this.bidPx : this.askPx;
    const sz = side === 'bid' ? this.bidSz : this.askSz;
    return px.map((p, i) => [p, sz[i]!]);
  }
}

/** Index of `price` in a sorted array, or where it would go. */
function search(px: number[], price: number, descending: boolean): number {
  let lo = 0;
  let hi = px.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = px[mid]!;
    if (descending ? v > price : v < price) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function setLevel(px: number[], sz: number[], price: number, size: number, descending: boolean): void {
  const i = search(px, price, descending);
  if (px[i] === price) {
    if (size > 0) sz[i] = size;
    else {
      px.splice(i, 1);
      sz.splice(i, 1);
    }
  } else if (size > 0) {
    px.splice(i, 0, price);
    sz.splice(i, 0, size);
  }
}
