import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { BarSeries, garmanKlass } from '../features/series.ts';
import { normQuantile } from '../math.ts';
import type { Bar } from '../types.ts';
import { sigmaCandidates, SIGMA_CANDIDATES } from './sigma-pool.ts';
import { activityFactor, basketBurstFactor, fastRangeSigma, rangeSigma } from './vol.ts';

const gauss = (rand: () => number) => normQuantile(Math.min(Math.max(rand(), 1e-12), 1 - 1e-12));
const BAR = 5 * 60_000;

/** 5-minute bars of a Brownian log price (60 sub-steps a bar), variance `varPerMs` per millisecond. */
function brownianBars(n: number, varPerMs: number, seed: number): Bar[] {
  const rand = mulberry32(seed);
  const sub = 60;
  const sd = Math.sqrt((varPerMs * BAR) / sub);
  let x = Math.log(100);
  const bars: Bar[] = [];
  for (let i = 0; i < n; i++) {
    const open = x;
    let hi = x;
    let lo = x;
    for (let k = 0; k < sub; k++) {
      x += sd * gauss(rand);
      hi = Math.max(hi, x);
      lo = Math.min(lo, x);
    }
    bars.push({
      openTime: i * BAR,
      open: Math.exp(open),
      high: Math.exp(hi),
      low: Math.exp(lo),
      close: Math.exp(x),
      volume: 1,
    });
  }
  return bars;
}

describe('range-based variance (Garman–Klass)', () => {
  it('is about unbiased for the bar variance and several times less noisy than the squared return', () => {
    const varPerMs = 1e-4 ** 2 / 60_000;
    const bars = brownianBars(20_000, varPerMs, 7);
    const truth = varPerMs * BAR;
    const gk = bars.map(garmanKlass);
    const sq = bars.map((b) => Math.log(b.close / b.open) ** 2);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    const variance = (a: number[]) => {
      const m = mean(a);
      return mean(a.map((v) => (v - m) ** 2));
    };
    // A path seen at 60 points a bar understates its range (here by ~20 %); the σ pool corrects the level.
    expect(mean(gk) / truth).toBeGreaterThan(0.7);
    expect(mean(gk) / truth).toBeLessThan(1.05);
    expect(Math.abs(mean(sq) / truth - 1)).toBeLessThan(0.05);
    expect(variance(sq) / variance(gk)).toBeGreaterThan(4);
  });

  it('a malformed bar contributes nothing', () => {
    expect(garmanKlass({ openTime: 0, open: 1, high: 0.9, low: 1.1, close: 1, volume: 0 })).toBe(0);
    expect(garmanKlass({ openTime: 0, open: 0, high: 1, low: 1, close: 1, volume: 0 })).toBe(0);
  });

  it('the range σ candidates read no bar after the index given', () => {
    const bars = brownianBars(3000, 1e-8 / 60_000, 11);
    const poisoned = bars.map((b, i) => (i > 2500 ? { ...b, high: b.high * 3, low: b.low / 3 } : b));
    const a = BarSeries.from('X', BAR, bars);
    const b = BarSeries.from('X', BAR, poisoned);
    const h = 60 * 60_000;
    expect(rangeSigma(b, 2500, h)).toBe(rangeSigma(a, 2500, h));
    expect(Array.from(sigmaCandidates(b, 2500, h)!)).toEqual(Array.from(sigmaCandidates(a, 2500, h)!));
    expect(rangeSigma(b, 2600, h)).toBeGreaterThan(2 * rangeSigma(a, 2600, h));
    expect(sigmaCandidates(a, 2500, h)!.length).toBe(SIGMA_CANDIDATES.length);
  });
});

describe('activity factor (volume of the last 5 minutes against the last 4 hours)', () => {
  it('is 1 at a steady volume, follows a burst as a ratio of rates, and is clamped to [1/3, 3]', () => {
    const bars = brownianBars(200, 1e-9, 7);
    const steady = BarSeries.from('X', BAR, bars);
    expect(activityFactor(steady, 199)).toBeCloseTo(1, 12);
    // Too little history for the 4-hour window: neutral.
    expect(activityFactor(steady, 10)).toBe(1);
    const withLast = (volume: number) =>
      BarSeries.from(
        'X',
        BAR,
        bars.map((b, i) => (i === 199 ? { ...b, volume } : b)),
      );
    // The last bar trades 2× the usual: the rate of the last 5 minutes over that of the last 4 hours (48 bars).
    expect(activityFactor(withLast(2), 199)).toBeCloseTo(2 / (49 / 48), 12);
    expect(activityFactor(withLast(100), 199)).toBe(3);
    expect(activityFactor(withLast(0), 199)).toBe(1 / 3);
    // The candidates it scales: the range-based EWMA (1 h and 10 min half-lives), the EWMA and HAR.
    const c = sigmaCandidates(withLast(2), 199, 15 * 60_000)!;
    const factor = Math.sqrt(2 / (49 / 48));
    for (const name of ['range', 'ewma', 'har', 'range_fast'] as const)
      expect(c[SIGMA_CANDIDATES.indexOf(`${name}_activity`)]).toBeCloseTo(
        c[SIGMA_CANDIDATES.indexOf(name)]! * factor,
        12,
      );
  });
});

describe('fast range-based σ (half-life 10 minutes)', () => {
  it('follows a jump in the range within minutes, where the hour-long EWMA lags', () => {
    const calm = brownianBars(300, 1e-10, 11);
    const wild = brownianBars(6, 16e-10, 12).map((b, k) => ({ ...b, openTime: (300 + k) * BAR }));
    const s = BarSeries.from('X', BAR, [...calm, ...wild]);
    const h = 15 * 60_000;
    // Six bars (30 minutes) of 16× the variance: the fast σ has moved most of the way to 4× the calm σ
    // (7/8 of the variance, ≈ 3.8×), the slow one less of it (≈ 0.3 of the variance, ≈ 2.3×).
    const before = rangeSigma(s, 299, h);
    expect(fastRangeSigma(s, 299, h) / before).toBeGreaterThan(0.7);
    expect(fastRangeSigma(s, 299, h) / before).toBeLessThan(1.4);
    expect(fastRangeSigma(s, 305, h) / before).toBeGreaterThan(3);
    expect(fastRangeSigma(s, 305, h)).toBeGreaterThan(1.2 * rangeSigma(s, 305, h));
  });
});

describe('basket burst factor', () => {
  const calmThenWild = (seed: number, wildBars: number, offset = 0) => {
    const calm = brownianBars(300, 1e-10, seed);
    const wild = brownianBars(wildBars, 16e-10, seed + 1).map((b, k) => ({
      ...b,
      openTime: (300 + k) * BAR,
    }));
    return BarSeries.from(
      `S${seed}`,
      BAR,
      [...calm, ...wild].map((b) => ({ ...b, openTime: b.openTime + offset })),
    );
  };

  it('reads the other coins only: their fast range variance over their hour-long one, geometric mean', () => {
    const own = calmThenWild(21, 0);
    const a = calmThenWild(31, 6);
    const b = calmThenWild(41, 6);
    const t = own.closeTime[299]!;
    const j = a.indexAt(t + 2 * BAR);
    const ratio = (s: BarSeries, i: number) => s.fastRangeVar[i]! / s.ewmaRangeVar[i]!;
    // Own series alone, or no basket: neutral.
    expect(basketBurstFactor([own], own, t)).toBe(1);
    expect(basketBurstFactor([], own, t)).toBe(1);
    // Ten minutes of 16× the variance on two other coins: their fast EWMA has run ahead of the slow one.
    const burst = basketBurstFactor([own, a, b], own, t + 2 * BAR);
    expect(burst).toBeGreaterThan(2);
    expect(burst).toBeCloseTo(Math.min(3, Math.sqrt(ratio(a, j) * ratio(b, j))), 12);
    // A burst on the coin itself is its own σ's business, not the basket's.
    const wildOwn = calmThenWild(51, 6);
    expect(basketBurstFactor([wildOwn, own], wildOwn, t + 2 * BAR)).toBeCloseTo(ratio(own, 299), 12);
  });

  it('ignores a coin whose last bar is more than 15 minutes old, and clamps to [1/3, 3]', () => {
    const own = calmThenWild(61, 40);
    const stale = calmThenWild(71, 40, -60 * 60_000);
    const t = own.closeTime[339]!;
    expect(basketBurstFactor([own, stale], own, t)).toBe(1);
    const wild = BarSeries.from('W', BAR, [
      ...brownianBars(300, 1e-12, 81),
      ...brownianBars(6, 1e-8, 82).map((b, k) => ({ ...b, openTime: (300 + k) * BAR })),
    ]);
    expect(basketBurstFactor([own, wild], own, wild.closeTime[305]!)).toBe(3);
    // The candidate it scales: the range-based EWMA (1 h half-life).
    const c = sigmaCandidates(own, 339, 15 * 60_000, 2)!;
    expect(c[SIGMA_CANDIDATES.indexOf('range_basket_burst')]).toBeCloseTo(
      2 * rangeSigma(own, 339, 15 * 60_000),
      15,
    );
  });
});
