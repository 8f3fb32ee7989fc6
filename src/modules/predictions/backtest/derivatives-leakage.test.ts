import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../shared/random.ts';
import { extractFeatures } from '../features/extract.ts';
import { BarSeries, FundingSeries, OpenInterestSeries } from '../features/series.ts';
import { marketFacts } from '../facts.ts';
import type { Bar, FundingPoint, OpenInterestPoint } from '../types.ts';
import { runBacktestWithFundingAblation } from './funding-ablation.ts';
import { type BacktestDatapoint, runBacktest } from './run.ts';

const M = 60_000;
const H = 60 * M;
const DAY = 24 * H;
const STEP = 5 * M;
const START = Date.UTC(2025, 8, 1);
const DAYS = 6;

/** A random walk of 5-minute bars, with funding every 8 h (jittered like real files) and open interest hourly. */
function world(seed: number) {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const bars: Bar[] = [];
  let p = 100_000;
  for (let t = START; t < START + DAYS * DAY; t += STEP) {
    const open = p;
    p *= Math.exp(0.002 * normal());
    const hi = Math.max(open, p) * (1 + 0.0005 * rand());
    const lo = Math.min(open, p) * (1 - 0.0005 * rand());
    bars.push({ openTime: t, open, high: hi, low: lo, close: p, volume: 10 + 5 * rand() });
  }
  const funding: FundingPoint[] = [];
  for (let t = START - 8 * H; t < START + DAYS * DAY; t += 8 * H)
    funding.push({ time: t + Math.floor(rand() * 6), rate: 0.0001 + 0.0002 * normal() });
  const openInterest: OpenInterestPoint[] = [];
  let oi = 5e9;
  for (let t = START - 7 * DAY; t < START + DAYS * DAY; t += H) {
    oi *= Math.exp(0.01 * normal());
    openInterest.push({ time: t, usd: oi });
  }
  return { bars, funding, openInterest };
}

/** The same data with every funding settlement and open-interest sample after `cut` replaced. */
function poisonedAfter<T extends { time: number }>(
  points: readonly T[],
  cut: number,
  poison: (p: T) => T,
): T[] {
  return points.map((p) => (p.time > cut ? poison(p) : p));
}

describe('no look-ahead in the derivatives inputs', () => {
  const { bars, funding, openInterest } = world(11);
  const cut = START + 4 * DAY + 3 * H + 17 * M;
  const badFunding = poisonedAfter(funding, cut, (p) => ({ ...p, rate: -0.01 }));
  const badOi = poisonedAfter(openInterest, cut, (p) => ({ ...p, usd: p.usd * 3 }));

  it('features and facts at t read no funding settled, and no open interest sampled, after t', () => {
    const series = BarSeries.from('BTCUSDT', STEP, bars);
    const clean = {
      series,
      basket: [series],
      funding: new FundingSeries(funding),
      openInterest: new OpenInterestSeries(openInterest),
    };
    const poisoned = {
      series,
      basket: [series],
      funding: new FundingSeries(badFunding),
      openInterest: new OpenInterestSeries(badOi),
    };
    let compared = 0;
    for (let t = START + DAY; t <= cut; t += 17 * M) {
      const a = extractFeatures(clean, t)!;
      expect(extractFeatures(poisoned, t)!.funding).toEqual(a.funding);
      expect(marketFacts(poisoned, t)).toEqual(marketFacts(clean, t));
      if (a.funding![3] !== 0) compared++;
    }
    expect(compared).toBeGreaterThan(100);
    // After the cut the poison is read: the check above could have failed.
    const after = cut + 8 * H;
    expect(extractFeatures(poisoned, after)!.funding).not.toEqual(extractFeatures(clean, after)!.funding);
  });

  it('walk-forward: every forecast made before the cut is the same whatever the funding and open interest after it', () => {
    const run = (f: readonly FundingPoint[], oi: readonly OpenInterestPoint[]) => {
      const datapoints: BacktestDatapoint[] = [];
      const member: number[] = [];
      runBacktest({
        symbol: 'BTCUSDT',
        bars: new Map([['BTCUSDT', bars]]),
        funding: f,
        openInterest: oi,
        horizons: ['15m'],
        leakageCheck: false,
        calibratedWorldReplications: 0,
        onForecast: (d) => datapoints.push(d),
        onScored: (forecast) => {
          if (forecast.t <= cut) member.push(forecast.rawMemberMu[1]!);
        },
      });
      const before = datapoints.filter((d) => Date.parse(d.generatedAt) <= cut);
      return { before, member, after: datapoints.filter((d) => Date.parse(d.generatedAt) > cut) };
    };
    const clean = run(funding, openInterest);
    const poisoned = run(badFunding, badOi);
    expect(clean.before.length).toBeGreaterThan(100);
    expect(poisoned.before.map((d) => ({ ...d, outcome: null }))).toEqual(
      clean.before.map((d) => ({ ...d, outcome: null })),
    );
    expect(poisoned.member).toEqual(clean.member);
    // The funding member is live in these forecasts, and the poison does change what comes after the cut.
    expect(clean.member.some((m) => m !== 0)).toBe(true);
    expect(poisoned.after).not.toEqual(clean.after);
  });

  it('the ablation pairs every scored forecast and leaves the main report as the plain backtest', () => {
    const input = {
      symbol: 'BTCUSDT',
      bars: new Map([['BTCUSDT', bars]]),
      funding,
      openInterest,
      horizons: ['15m' as const],
      leakageCheck: false,
      calibratedWorldReplications: 0,
    };
    const plain = runBacktest(input);
    const withAblation = runBacktestWithFundingAblation(input);
    const c = withAblation.fundingAblation!.horizons['15m']!;
    expect(withAblation.fundingAblation!.inputs).toEqual({ funding: true, openInterest: true });
    expect(withAblation.horizons['15m']!.forecasters).toEqual(plain.horizons['15m']!.forecasters);
    expect(c.count).toBe(plain.horizons['15m']!.count);
    expect(c.shareWithInputs).toBe(1);
    expect(c.crpsWith).toBeCloseTo(plain.horizons['15m']!.forecasters.ensemble.crps, 12);
    expect(Number.isFinite(c.skillPct) && Number.isFinite(c.memberT)).toBe(true);
    // Without derivatives inputs there is nothing to ablate.
    expect(
      runBacktestWithFundingAblation({ ...input, funding: undefined, openInterest: undefined })
        .fundingAblation,
    ).toBeUndefined();
  });
});
