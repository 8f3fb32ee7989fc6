import { describe, expect, it } from 'vitest';
import { type BookLike, slippage } from './consolidate.ts';
import { decodeFollowerWire, encodeFollowerBook, followerSlippage } from './follower.ts';

const book = (bids: Array<[number, number]>, asks: Array<[number, number]>): BookLike => ({
  bidPx: bids.map((l) => l[0]),
  bidSz: bids.map((l) => l[1]),
  askPx: asks.map((l) => l[0]),
  askSz: asks.map((l) => l[1]),
});

const roundTrip = (books: BookLike[], mid: number, maxLevels?: number) => {
  const wire = JSON.parse(JSON.stringify({ books: { X: encodeFollowerBook(books, mid, maxLevels) } }));
  return { wire: wire.books.X, decoded: decodeFollowerWire(wire).books.get('X') };
};

describe('follower book wire', () => {
  const books = [
    book(
      [
        [0.33361, 1000.5],
        [0.3335, 2000],
      ],
      [
        [0.33372, 700.25],
        [0.334, 5000],
      ],
    ),
    book([[0.33361, 10]], [[0.3338, 3000.125]]),
  ];

  it('sends grid prices as integer differences and gets the same doubles back', () => {
    const { wire, decoded } = roundTrip(books, 0.33366);
    expect(wire.dp).toBe(5);
    expect(wire.bids).toEqual([33361, 1000.5, 0, 10, -11, 2000]);
    expect(decoded!.book).toEqual({
      bidPx: [0.33361, 0.33361, 0.3335],
      bidSz: [1000.5, 10, 2000],
      askPx: [0.33372, 0.3338, 0.334],
      askSz: [700.25, 3000.125, 5000],
    });
    for (const n of [10, 300, 1000, 2000, 3000]) {
      expect(followerSlippage(decoded, n)).toEqual(slippage(books, 0.33366, n));
    }
  });

  it('falls back to raw prices when no decimal grid fits, and cuts at maxLevels', () => {
    const odd = [book([[Math.PI, 1]], [[Math.E * 2, 1]])];
    const { wire, decoded } = roundTrip(odd, 4.3);
    expect(wire.dp).toBeNull();
    expect(decoded!.book.bidPx).toEqual([Math.PI]);
    const cut = roundTrip(books, 0.33366, 1);
    expect(cut.decoded!.book.askPx).toEqual([0.33372]);
  });

  it('leaves malformed entries out', () => {
    const d = decodeFollowerWire({ books: { A: { mid: 1, bids: 'x', asks: [] }, B: null }, open: { A: 3 } });
    expect(d.books.size).toBe(0);
    expect(d.open.size).toBe(0);
    expect(followerSlippage(undefined, 5)).toEqual({ notional: 5, buyBps: null, sellBps: null });
  });
});
