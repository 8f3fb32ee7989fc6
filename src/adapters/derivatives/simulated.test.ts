import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { PriceModel } from '../market/simulated/model.ts';
import { profileOf } from '../market/simulated/universe.ts';
import { simulatedDerivativesSource } from './simulated.ts';

const START = Date.UTC(2026, 0, 5);
const MINUTE = 60_000;

describe('the simulated perpetuals, consistent with the simulated prices', () => {
  const model = new PriceModel(42, ['BTCUSDT', 'SOLUSDT'], profileOf);
  const clock = manualClock(START);
  const source = simulatedDerivativesSource({ model, symbols: ['BTCUSDT', 'SOLUSDT'], clock });

  it('funding takes the sign of the premium once it is beyond the interest clamp, and mark sits on the premium side', async () => {
    let positive = 0;
    let negative = 0;
    for (let t = START; t < START + 10 * 86_400_000; t += 15 * MINUTE) {
      const premium = source.premiumAt('SOLUSDT', t);
      const funding = source.fundingAt('SOLUSDT', t);
      if (premium > 0.0006) {
        expect(funding).toBeGreaterThan(0);
        positive++;
      }
      if (premium < -0.0006) {
        expect(funding).toBeLessThan(0);
        negative++;
      }
    }
    expect(positive).toBeGreaterThan(10);
    expect(negative).toBeGreaterThan(10);
    clock.set(START + 3 * 3_600_000);
    const { readings } = await source.poll('SOLUSDT');
    const premium = source.premiumAt('SOLUSDT', clock.now());
    const binance = readings.find((r) => r.venue === 'binance')!;
    expect(Math.sign(binance.markPrice! - binance.indexPrice!)).toBe(Math.sign(premium));
    // The index is the simulated spot price.
    expect(binance.indexPrice).toBe(model.priceAtMinute('SOLUSDT', clock.now()));
    // Venues that lack a metric: kraken streams no liquidations and publishes no predicted rate.
    expect(source.liquidationVenues).toEqual(['binance', 'okx']);
    expect(readings.find((r) => r.venue === 'kraken')).not.toHaveProperty('predictedFundingRate');
  });

  it('liquidations spike on the sharpest moves, on the losing side', () => {
    const from = START;
    const to = START + 3 * 86_400_000;
    const perMinute = new Map<number, { long: number; short: number }>();
    for (const l of source.liquidationsBetween('BTCUSDT', 'binance', from, to)) {
      const m = l.time - (l.time % MINUTE);
      const b = perMinute.get(m) ?? { long: 0, short: 0 };
      b[l.side] += l.usd;
      perMinute.set(m, b);
    }
    const minutes = (to - from) / MINUTE;
    const total = [...perMinute.values()].reduce((s, b) => s + b.long + b.short, 0);
    // The crash: the minute whose close fell the most (in its own volatility).
    let crash = from;
    let worst = 0;
    for (let m = from + MINUTE; m < to; m += MINUTE) {
      const z =
        (model.priceAtMinute('BTCUSDT', m + MINUTE) / model.priceAtMinute('BTCUSDT', m) - 1) /
        model.minuteVol('BTCUSDT', m + MINUTE);
      if (z < worst) {
        worst = z;
        crash = m;
      }
    }
    expect(worst).toBeLessThan(-3);
    const atCrash = perMinute.get(crash)!;
    expect(atCrash.long).toBeGreaterThan(20 * (total / minutes));
    expect(atCrash.short).toBe(0);
    // Calm minutes (within one standard deviation) liquidate nothing: most minutes are empty.
    expect(perMinute.size).toBeLessThan(minutes / 2);
  });
});
