import { describe, expect, it } from 'vitest';
import { BarSeries } from './series.ts';

const MIN = 60_000;
const bar = (i: number) => {
  const p = 100 * Math.exp(0.01 * Math.sin(i / 7) + 0.002 * Math.cos(i * 1.3));
  return {
    openTime: i * MIN,
    open: p * 0.999,
    high: p * 1.002,
    low: p * 0.997,
    close: p,
    volume: 1 + (i % 5),
  };
};

describe('BarSeries.trim', () => {
  it('keeps the newest bars and every window statistic over them unchanged', () => {
    const full = new BarSeries('BTCUSDT', MIN);
    const trimmed = new BarSeries('BTCUSDT', MIN);
    for (let i = 0; i < 5_000; i++) {
      full.append(bar(i));
      trimmed.append(bar(i));
      trimmed.trim(1_000);
    }
    expect(trimmed.length).toBeLessThanOrEqual(1_125);
    expect(trimmed.length).toBeGreaterThanOrEqual(1_000);
    const offset = full.length - trimmed.length;
    for (const i of [200, 500, trimmed.length - 1]) {
      const j = i + offset;
      expect(trimmed.closeTime[i]).toBe(full.closeTime[j]);
      for (const windowMs of [15 * MIN, 60 * MIN, 120 * MIN]) {
        expect(trimmed.rv(i, windowMs)).toBeCloseTo(full.rv(j, windowMs)!, 15);
        expect(trimmed.volumeRate(i, windowMs)).toBeCloseTo(full.volumeRate(j, windowMs)!, 12);
        expect(trimmed.flow(i, windowMs)).toBeCloseTo(full.flow(j, windowMs)!, 12);
        expect(trimmed.ret(i, windowMs)).toBe(full.ret(j, windowMs));
      }
      expect(trimmed.ewmaVar[i]).toBe(full.ewmaVar[j]);
    }
    // Rebased: the first kept bar starts the sums, as if the series had begun there.
    expect(trimmed.sumSq[0]).toBe(0);
    expect(trimmed.sumVol[0]).toBeCloseTo(bar(offset).volume, 9);
  });
});
