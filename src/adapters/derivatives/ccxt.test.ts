import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeReadings, presentSummary } from '../../modules/derivatives/index.ts';
import { manualClock } from '../../shared/clock.ts';
import { type CcxtDerivativesExchange, ccxtDerivativesSource } from './ccxt.ts';

/** Recorded venue answers, in ccxt's unified shapes (funding rate, open interest, liquidation structures). */
const fixtures = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/ccxt-venues.json'), 'utf8'),
) as Record<
  string,
  Record<string, unknown> & { has: Record<string, boolean>; markets: Record<string, object> }
>;

/** An exchange stand-in answering the recorded responses; `watchLiquidations` delivers its batch once. */
function recordedExchange(venue: string): CcxtDerivativesExchange {
  const f = fixtures[venue]!;
  let delivered = false;
  let closed: () => void = () => {};
  const answer = (name: string) => (f.has[name] ? async () => structuredClone(f[name]) : undefined);
  return {
    id: venue,
    has: f.has,
    markets: f.markets,
    loadMarkets: async () => f.markets,
    fetchFundingRate: answer('fetchFundingRate') as CcxtDerivativesExchange['fetchFundingRate'],
    fetchOpenInterest: answer('fetchOpenInterest') as CcxtDerivativesExchange['fetchOpenInterest'],
    fetchFundingRateHistory: f.has.fetchFundingRateHistory
      ? async (_s, since = 0) =>
          (f.fetchFundingRateHistory as Array<{ timestamp: number }>).filter((p) => p.timestamp >= since)
      : undefined,
    fetchOpenInterestHistory: f.has.fetchOpenInterestHistory
      ? async (_s, _tf, since = 0) =>
          (f.fetchOpenInterestHistory as Array<{ timestamp: number }>).filter((p) => p.timestamp >= since)
      : undefined,
    watchLiquidations: f.has.watchLiquidations
      ? async () => {
          if (!delivered) {
            delivered = true;
            return structuredClone(f.watchLiquidations) as [];
          }
          return new Promise((_, reject) => {
            closed = () => reject(new Error('closed'));
          });
        }
      : undefined,
    close: async () => closed(),
  };
}

const NOW = 1_767_240_000_000;

describe('the ccxt derivatives source on recorded venue responses', () => {
  it('reads funding, open interest, mark and index per venue; a metric a venue lacks is absent, never 0', async () => {
    const source = ccxtDerivativesSource({
      venues: ['binance', 'okx', 'kraken'],
      symbols: ['BTCUSDT'],
      clock: manualClock(NOW),
      createExchange: recordedExchange,
    });
    await source.start?.();
    await new Promise((r) => setTimeout(r, 10));
    const { readings, liquidations } = await source.poll('BTCUSDT');
    await source.stop?.();
    const [binance, okx, kraken] = readings;
    expect(binance).toEqual({
      venue: 'binance',
      symbol: 'BTCUSDT',
      time: NOW,
      fundingRate: 0.0001,
      nextFundingTime: 1_767_254_400_000,
      fundingIntervalHours: 8,
      markPrice: 64_012.5,
      indexPrice: 64_000,
      openInterestContracts: 80_000.5,
      openInterestUsd: 5_121_000_000,
    });
    // okx: a predicted rate, contracts without a USD value nor a mark to price them → no USD figure.
    expect(okx).toMatchObject({
      fundingRate: 0.0003,
      predictedFundingRate: 0.00025,
      openInterestContracts: 3_000_000,
    });
    expect(okx).not.toHaveProperty('openInterestUsd');
    expect(okx).not.toHaveProperty('markPrice');
    // kraken (USD-settled, hourly funding): no open interest at all.
    expect(kraken).toMatchObject({
      venue: 'kraken',
      fundingRate: 0.0002,
      fundingIntervalHours: 1,
      markPrice: 64_030,
    });
    expect(kraken).not.toHaveProperty('openInterestContracts');
    expect(kraken).not.toHaveProperty('openInterestUsd');
    // Liquidations streamed by binance only: a sell closes a long, a buy a short.
    expect(source.liquidationVenues).toEqual(['binance']);
    expect(liquidations.map((l) => [l.side, l.usd])).toEqual([
      ['long', 126_000],
      ['short', 32_500],
    ]);

    const view = presentSummary(
      {
        ...mergeReadings('BTCUSDT', readings, { now: NOW, staleMs: 300_000, outlierBps: 100 }),
        openInterest: null,
        liquidations: null,
      },
      source.liquidationVenues,
    );
    const krakenView = view.venues.find((v) => v.venue === 'kraken')!;
    expect(krakenView.openInterestUsd).toBeNull();
    expect(krakenView.predictedFundingRate).toBeNull();
    expect(view.venues.find((v) => v.venue === 'okx')!.basisBps).toBeNull();
    // Basis from the venues with both prices (binance, kraken), weighted equally.
    expect(view.basis!.bps).toBeCloseTo(((64_012.5 + 64_030) / 2 / ((64_000 + 64_001) / 2) - 1) * 10_000, 3);
    expect(view.funding!.predictedRate).toBe(0.00025);
  });

  it('pages funding and open-interest history; a venue without the method answers undefined', async () => {
    const source = ccxtDerivativesSource({
      venues: ['binance', 'kraken'],
      symbols: ['BTCUSDT'],
      clock: manualClock(NOW),
      createExchange: recordedExchange,
    });
    expect(await source.history!('binance', 'BTCUSDT', 'funding', 0, NOW)).toEqual([
      { time: 1_767_196_800_001, value: 0.00008, value2: null },
      { time: 1_767_225_600_000, value: -0.00002, value2: null },
    ]);
    expect(await source.history!('binance', 'BTCUSDT', 'open_interest', 0, NOW)).toEqual([
      { time: 1_767_232_800_000, value: 5_000_000_000, value2: 79_000 },
      { time: 1_767_236_400_000, value: 5_100_000_000, value2: 80_000 },
    ]);
    expect(await source.history!('kraken', 'BTCUSDT', 'funding', 0, NOW)).toBeUndefined();
    expect(await source.history!('kraken', 'BTCUSDT', 'open_interest', 0, NOW)).toBeUndefined();
    await source.stop?.();
  });
});
