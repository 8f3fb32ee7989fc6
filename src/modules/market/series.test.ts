import { describe, expect, it } from 'vitest';
import type { Candle } from './candles.ts';
import { CandleSeries } from './series.ts';

const bar = (openTime: number, x: number): Candle => ({
  openTime,
  open: x,
  high: x + 0.5,
  low: x - 0.25,
  close: x + 0.125,
  volume: x * 3,
  quoteVolume: x * 3.3,
});

/** The behaviour the series must have, written the obvious way (an array of bars). */
class Reference {
  items: Candle[] = [];
  constructor(readonly capacity: number) {}
  push(c: Candle) {
    const i = this.items.findIndex((x) => x.openTime >= c.openTime);
    if (i < 0) this.items.push(c);
    else if (this.items[i]!.openTime === c.openTime) this.items[i] = c;
    else this.items.splice(i, 0, c);
    if (this.items.length > this.capacity * 1.25) this.items.splice(0, this.items.length - this.capacity);
  }
}

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('CandleSeries', () => {
  it('answers every read as an array of bars would, through appends, replacements, inserts and trims', () => {
    for (const seed of [1, 2, 3]) {
      const rand = lcg(seed);
      const capacity = 40;
      const series = new CandleSeries(capacity);
      const ref = new Reference(capacity);
      let t = 1_000_000;
      for (let step = 0; step < 2_000; step++) {
        const r = rand();
        // Mostly appends; sometimes the current bar again (a replacement), sometimes an older gap filled.
        if (r < 0.8) t += 60_000;
        const older = t - Math.floor(rand() * 60) * 60_000 + (rand() < 0.5 ? 30_000 : 0);
        const openTime = r < 0.9 ? t : older;
        const c = bar(openTime, Math.round(rand() * 1e6) / 100);
        series.push(c);
        ref.push(c);
        expect(series.length).toBe(ref.items.length);
        if (step % 97 === 0) {
          expect(series.lastN(1_000)).toEqual(ref.items);
          expect(series.first).toEqual(ref.items[0]);
          expect(series.last).toEqual(ref.items.at(-1));
          const from = t - Math.floor(rand() * 50) * 60_000;
          const to = from + Math.floor(rand() * 30) * 60_000;
          const expected = ref.items.filter((x) => x.openTime >= from && x.openTime < to);
          expect(series.range(from, to, 1_000)).toEqual(expected);
          expect(series.range(from, to, 3)).toEqual(expected.slice(0, 3));
          expect([...series.since(from)]).toEqual(ref.items.filter((x) => x.openTime >= from));
          expect(series.at(from + 10)).toEqual(ref.items.filter((x) => x.openTime <= from + 10).at(-1));
          expect(series.lastN(5)).toEqual(ref.items.slice(-5));
          // The incremental read: the newest n bars that open after a time (between bars, on one, past all).
          for (const after of [from, from + 30_000, t, t - 60_000, 0])
            expect(series.lastN(7, after)).toEqual(ref.items.slice(-7).filter((x) => x.openTime > after));
        }
      }
      expect(series.length).toBeGreaterThanOrEqual(capacity);
      expect(series.length).toBeLessThanOrEqual(capacity * 1.25);
    }
  });

  it('loads the newest bars up to its capacity and keeps doubles exactly', () => {
    const series = new CandleSeries(3);
    const bars = [1, 2, 3, 4, 5].map((i) => bar(i * 60_000, 0.1 * i + 1e-9));
    bars[4] = { ...bars[4]!, volume: -0, quoteVolume: Number.MIN_VALUE };
    series.load(bars);
    expect(series.lastN(10)).toEqual(bars.slice(2));
    expect(Object.is(series.last!.volume, -0)).toBe(true);
    expect(series.at(0)).toBeUndefined();
    expect(series.at(3 * 60_000 + 1)).toEqual(bars[2]);
  });

  it('hands out copies: changing a bar read from it does not change the stored one', () => {
    const series = new CandleSeries(10);
    series.push(bar(60_000, 1));
    series.last!.close = 99;
    expect(series.last!.close).toBe(1.125);
  });
});
