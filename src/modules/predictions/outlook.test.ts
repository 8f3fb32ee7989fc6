import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HORIZONS } from '../identifiers/index.ts';
import { driverReason } from './drivers.ts';
import { directionEarned } from './forecast-row.ts';
import { outlookOf } from './outlook.ts';
import type { PredictionRow } from './repository.ts';
import { FACTORS } from './types.ts';

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];

/** A refresh holds one row per symbol × horizon. A stored row with the fields the outlook reads drawn at random (a side, a confidence, an earned mark). */
const rowArb = fc
  .record({
    symbol: fc.constantFrom(...SYMBOLS),
    horizon: fc.constantFrom(...HORIZONS),
    move: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
    confidence: fc.double({ min: 0.5, max: 0.9, noNaN: true }),
    earned: fc.boolean(),
    width: fc.double({ min: 0.001, max: 0.05, noNaN: true }),
    shares: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
  })
  .map(({ symbol, horizon, move, confidence, earned, width, shares }): PredictionRow => {
    const baseline = 100;
    const prediction = baseline * (1 + move);
    return {
      symbol,
      horizon,
      generated_at: 0,
      baseline,
      prediction,
      expected_move_pct: 100 * move,
      confidence,
      factors: Object.fromEntries(FACTORS.map((f, k) => [f, shares[k]!])),
      quantiles: { p10: prediction * (1 - width), p50: prediction, p90: prediction * (1 + width) },
      model_version: 'test',
      sigma: width,
      sigma_rw: width,
      realized: null,
      hit: null,
      crps: null,
      crps_rw: null,
      crps_garch: null,
      crps_har_rv: null,
      covered80: null,
      covered90: null,
      scored_at: null,
      backfilled: false,
      direction_earned: earned,
      facts: { fundingRate: 0.00012, vol1h: 0.021, vol1hMedian: 0.014, volDays: 3, return1h: 0.008 },
    };
  });

interface View {
  bias: string;
  message: string;
  horizons: Record<string, { bias: string; directionEarned: boolean; message: string }>;
  drivers: { factor: string; direction: string; weight: number; reason: string }[];
}

const outlook = (rows: PredictionRow[], symbol?: string) =>
  outlookOf(symbol, {
    latest: rows,
    gaps: [],
    generatedAt: () => 0,
    fundingKnown: () => true,
  }) as unknown as View;

describe('outlook never overclaims', () => {
  it('no bullish or bearish label where no datapoint summarized passed its evidence test', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(rowArb, { minLength: 1, maxLength: 9, selector: (r) => `${r.symbol}|${r.horizon}` }),
        fc.option(fc.constantFrom(...SYMBOLS)),
        (rows, s) => {
          const symbol = s ?? undefined;
          const o = outlook(rows, symbol);
          const mine = rows.filter((r) => symbol === undefined || r.symbol === symbol);
          const anyEarned = mine.some((r) => r.direction_earned);
          for (const [h, view] of Object.entries(o.horizons)) {
            const earnedHere = mine.some((r) => r.horizon === h && r.direction_earned);
            expect(view.directionEarned).toBe(earnedHere);
            if (!earnedHere) {
              expect(view.bias).toBe('neutral');
              expect(view.message).toMatch(/^No direction earned: 80 % of outcomes/);
            }
          }
          if (!anyEarned) {
            expect(o.bias).toBe('neutral');
            for (const d of o.drivers) {
              expect(d.direction).toBe('neutral');
              expect(d.weight).toBe(0);
            }
          }
          // A side shown is the side of the earned datapoints behind it.
          for (const [h, view] of Object.entries(o.horizons))
            if (view.bias !== 'neutral' && symbol !== undefined) {
              const row = mine.find((r) => r.horizon === h && r.direction_earned)!;
              expect(view.bias).toBe(row.prediction > row.baseline ? 'bullish' : 'bearish');
            }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a direction is earned only when the evidence-passed mean is non-zero and on the published side', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        (mu, median) => {
          const earned = directionEarned({ mu, median });
          if (mu === 0 || median === 0) expect(earned).toBe(false);
          else expect(earned).toBe(Math.sign(mu) === Math.sign(median));
        },
      ),
    );
    // The direction calibrator alone (mean 0) moves the median, but earns nothing.
    expect(directionEarned({ mu: 0, median: 0.0004 })).toBe(false);
  });

  it('driver sentences quote the factor values with their units, never the model internals', () => {
    const facts = {
      fundingRate: 0.00012,
      basisBps: 4.1,
      bookImbalance: 0.24,
      tradeFlowImbalance: -0.1,
      return1h: 0.008,
      return24h: -0.012,
      basketReturn1h: 0.0035,
      basketSymbols: 6,
      vol1h: 0.021,
      vol1hMedian: 0.014,
      volDays: 3,
    };
    expect(driverReason('funding', facts, 'neutral', true)).toBe(
      'Funding is +0.0120 % per 8 h, longs pay shorts; the perpetual trades 4.1 bps over spot: the model has earned no direction from funding and basis at these horizons.',
    );
    expect(driverReason('macro', facts, 'bullish', true)).toBe(
      "The other 6 coins moved +0.35 % over the last hour; 1h realized volatility is 2.10 %, above its 3-day median of 1.40 %: the model's record earns a bullish lean from market-wide momentum and the volatility regime.",
    );
    expect(driverReason('orderflow', facts, 'neutral', true)).toMatch(
      /^Order-book imbalance is \+0\.24 \(bids heavier\); 5-minute trade flow is −0\.10 \(sellers took more\)/,
    );
    expect(driverReason('ai_residual', facts, 'neutral', true)).toMatch(
      /^Price moved \+0\.80 % over the last hour and −1\.19 % over 24 h/,
    );
    expect(driverReason('funding', { ...facts, fundingRate: -0.0003 }, 'neutral', true)).toMatch(
      /^Funding is −0\.0300 % per 8 h, shorts pay longs/,
    );
    expect(driverReason('funding', {}, 'neutral', false)).toBe(
      'No funding data: this market source has no perpetual funding feed.',
    );
    for (const f of FACTORS)
      for (const d of ['bullish', 'bearish', 'neutral'] as const)
        expect(driverReason(f, facts, d, true)).not.toMatch(/residual|learned|adjusts/i);
  });

  it('the funding driver names open interest and the funding period when they are known, and never when absent', () => {
    const perp = { fundingRate: 0.00012, basisBps: -2.5, openInterestChange4hPct: 3.21 };
    expect(driverReason('funding', perp, 'bearish', true)).toBe(
      "Funding is +0.0120 % per 8 h, longs pay shorts; the perpetual trades 2.5 bps under spot; open interest rose 3.2 % over 4 h (positions opened): the model's record earns a bearish lean from funding, basis and open interest.",
    );
    expect(
      driverReason(
        'funding',
        { ...perp, openInterestChange4hPct: -1.04, fundingIntervalHours: 4 },
        'neutral',
        true,
      ),
    ).toBe(
      'Funding is +0.0120 % per 4 h, longs pay shorts; the perpetual trades 2.5 bps under spot; open interest fell 1.0 % over 4 h (positions closed): the model has earned no direction from funding, basis and open interest at these horizons.',
    );
    expect(driverReason('funding', { openInterestChange4hPct: 0.01 }, 'neutral', true)).toBe(
      'Open interest is flat over 4 h: the model has earned no direction from funding, basis and open interest at these horizons.',
    );
    // Absent figures are not named: no basis, no open interest, no period other than the one known.
    const rateOnly = driverReason('funding', { fundingRate: 0.0001 }, 'neutral', true);
    expect(rateOnly).not.toMatch(/open interest|bps|spot/);
    expect(driverReason('funding', {}, 'neutral', true)).toBe(
      'No funding rate known at this forecast: the model has earned no direction from funding and basis at these horizons.',
    );
  });
});
