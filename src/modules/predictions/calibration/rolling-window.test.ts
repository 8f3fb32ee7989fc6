import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { RollingWindow, float64, uint8 } from './rolling-window.ts';

describe('RollingWindow', () => {
  it('holds the last `capacity` numbers at the positions of a ring allocated whole', () => {
    const rand = mulberry32(7);
    const capacity = 1000;
    const window = new RollingWindow(capacity, float64);
    const ring = new Float64Array(capacity);
    let head = 0;
    for (let i = 0; i < 2500; i++) {
      const x = rand();
      window.add(x);
      ring[head] = x;
      head = (head + 1) % capacity;
      const size = Math.min(i + 1, capacity);
      expect(window.size).toBe(size);
      if (i % 97 === 0 || i === 2499) for (let k = 0; k < size; k++) expect(window.at(k)).toBe(ring[k]);
    }
    expect(Array.from(window.sorted())).toEqual(Array.from(ring).sort((a, b) => a - b));
  });

  it('allocates with what it holds: at most twice the numbers held (64 at least), never beyond capacity', () => {
    const window = new RollingWindow(43_200, float64);
    expect(window.heldBytes).toBe(64 * 8);
    for (let i = 1; i <= 50_000; i++) {
      window.add(i);
      expect(window.heldBytes).toBeLessThanOrEqual(Math.max(64, 2 * Math.min(i, 43_200)) * 8);
    }
    expect(window.heldBytes).toBe(43_200 * 8);
    const hits = new RollingWindow(10, uint8);
    for (let i = 0; i < 25; i++) hits.add(i % 2);
    expect(hits.heldBytes).toBe(10);
    expect(Array.from(hits.sorted())).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  });
});
