import { describe, expect, it } from 'vitest';
import { MinHeap } from './min-heap.ts';
import { mulberry32 } from './random.ts';

describe('MinHeap', () => {
  it('pops only what is due, earliest first, and keeps the rest', () => {
    const heap = new MinHeap<string>();
    for (const [at, item] of [
      [30, 'c'],
      [10, 'a'],
      [50, 'e'],
      [20, 'b'],
      [40, 'd'],
    ] as const)
      heap.push(at, item);
    const seen: Array<[string, number]> = [];
    heap.popDue(30, (item, at) => seen.push([item, at]));
    expect(seen).toEqual([
      ['a', 10],
      ['b', 20],
      ['c', 30],
    ]);
    expect(heap.size).toBe(2);
    heap.popDue(29, () => expect.unreachable());
    heap.popDue(Number.POSITIVE_INFINITY, (item) => seen.push([item, 0]));
    expect(seen.slice(3).map(([item]) => item)).toEqual(['d', 'e']);
    expect(heap.size).toBe(0);
  });

  it('orders a thousand random times like a sort', () => {
    const random = mulberry32(7);
    const heap = new MinHeap<number>();
    const times = Array.from({ length: 1000 }, () => Math.floor(random() * 500));
    for (const t of times) heap.push(t, t);
    const out: number[] = [];
    heap.popDue(1000, (item) => out.push(item));
    expect(out).toEqual([...times].sort((a, b) => a - b));
  });
});
