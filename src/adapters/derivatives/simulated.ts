import type {
  DerivativesSource,
  Liquidation,
  SeriesPoint,
  VenueReading,
} from '../../modules/derivatives/index.ts';
import { DERIVATIVES_METRICS } from '../../modules/derivatives/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { type PriceModel, hash, rng, venueProfile } from '../market/simulated/model.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Funding settles every 8 h (00, 08, 16 UTC), as the simulated spot market's funding does. */
const FUNDING_PERIOD_MS = 8 * HOUR;
const DEFAULT_VENUES = ['binance', 'okx', 'kraken'] as const;
/** Venues whose simulated feed streams liquidations (kraken's does not: its liquidations are absent). */
const LIQUIDATION_VENUES = ['binance', 'okx'];
/** Venues publishing a predicted next rate (okx does, like the real venue). */
const PREDICTING_VENUES = ['okx'];

export interface SimulatedDerivativesOptions {
  /** The simulated market's price model (same seed: the same prices as the spot feed). */
  model: PriceModel;
  symbols: readonly string[];
  venues?: readonly string[];
  clock: Clock;
}

const minuteOf = (t: number) => t - (t % MINUTE);

/**
 * Perpetuals on the simulated market, as pure functions of the model's price path (so history and live
 * agree, and a restart regenerates what it missed):
 * - premium (mark over index) follows momentum: 5 % of the 8 h return plus 10 % of the 1 h return;
 * - funding is the premium plus the interest rate clamped to ±0.05 % (the common venue formula), so a
 *   premium beyond ±0.05 % gives funding of its sign;
 * - open interest is about half a day's volume, grows with the size of the day's move and is flushed on
 *   violent minutes;
 * - liquidations grow with the square of a minute's move beyond one standard deviation: longs on a drop,
 *   shorts on a rise — a crash is a cascade.
 */
export function simulatedDerivativesSource(options: SimulatedDerivativesOptions): DerivativesSource & {
  premiumAt(symbol: string, t: number): number;
  fundingAt(symbol: string, t: number): number;
  liquidationsBetween(symbol: string, venue: string, fromMs: number, toMs: number): Liquidation[];
} {
  const { model, clock } = options;
  const venues = (options.venues ?? DEFAULT_VENUES).filter((v) => venueProfile(v).perpetual);
  const symbols = [...options.symbols];
  const lastPoll = new Map<string, number>();
  const price = (symbol: string, t: number) => model.priceAtMinute(symbol, minuteOf(t));

  const premiumAt = (symbol: string, t: number): number => {
    const p = price(symbol, t);
    const r8 = p / price(symbol, t - FUNDING_PERIOD_MS) - 1;
    const r1 = p / price(symbol, t - HOUR) - 1;
    return Math.max(-0.01, Math.min(0.01, 0.05 * r8 + 0.1 * r1));
  };
  const fundingFromPremium = (premium: number) =>
    Math.max(-0.003, Math.min(0.003, premium + Math.max(-0.0005, Math.min(0.0005, 0.0001 - premium))));
  const fundingAt = (symbol: string, t: number) => fundingFromPremium(premiumAt(symbol, t));

  /** A minute's move in standard deviations (signed). */
  const minuteZ = (symbol: string, minute: number) => {
    const r = price(symbol, minute) / price(symbol, minute - MINUTE) - 1;
    return r / (model.minuteVol(symbol, minute) || 1e-9);
  };

  const openInterestUsd = (symbol: string, venue: string, t: number): number => {
    const base = model.profile(symbol).dailyQuoteVolume * venueProfile(venue).share * 0.5;
    const r24 = Math.abs(price(symbol, t) / price(symbol, t - 24 * HOUR) - 1);
    let flush = 0;
    for (let m = minuteOf(t) - 14 * MINUTE; m <= minuteOf(t); m += MINUTE)
      flush += Math.max(0, Math.abs(minuteZ(symbol, m)) - 3) * 0.02;
    return base * (1 + 3 * r24) * (1 - Math.min(0.3, flush));
  };

  function liquidationsBetween(symbol: string, venue: string, fromMs: number, toMs: number): Liquidation[] {
    if (!LIQUIDATION_VENUES.includes(venue)) return [];
    const out: Liquidation[] = [];
    for (let m = minuteOf(fromMs) + MINUTE; m <= toMs; m += MINUTE) {
      if (m <= fromMs) continue;
      const z = minuteZ(symbol, m);
      const excess = Math.abs(z) - 1;
      if (excess <= 0) continue;
      const usd = openInterestUsd(symbol, venue, m - MINUTE) * 0.0002 * excess * excess;
      const u = rng(hash(`${symbol}|${venue}|liq|${m}`));
      const p = price(symbol, m);
      // One to three orders in the minute, splitting the total.
      const n = 1 + Math.floor(u() * 3);
      for (let i = 0; i < n; i++) {
        const part = usd / n;
        out.push({
          venue,
          symbol,
          time: m - MINUTE + Math.floor(u() * MINUTE),
          side: z < 0 ? 'long' : 'short',
          price: p,
          size: part / p,
          usd: part,
        });
      }
    }
    return out.sort((a, b) => a.time - b.time);
  }

  return {
    kind: 'simulated',
    simulated: true,
    venues,
    symbols,
    metrics: DERIVATIVES_METRICS,
    liquidationVenues: venues.filter((v) => LIQUIDATION_VENUES.includes(v)),
    premiumAt,
    fundingAt,
    liquidationsBetween,
    async poll(symbol) {
      const now = clock.now();
      if (!symbols.includes(symbol)) return { readings: [], liquidations: [] };
      const index = price(symbol, now);
      const premium = premiumAt(symbol, now);
      const next = Math.floor(now / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS + FUNDING_PERIOD_MS;
      const readings: VenueReading[] = venues.map((venue) => {
        const offset = venueProfile(venue).offsetBps / 10_000;
        const mark = index * (1 + premium + offset);
        const usd = openInterestUsd(symbol, venue, now);
        const reading: VenueReading = {
          venue,
          symbol,
          time: now,
          fundingRate: fundingFromPremium(premium + offset),
          nextFundingTime: next,
          fundingIntervalHours: 8,
          openInterestUsd: usd,
          openInterestContracts: usd / mark,
          markPrice: mark,
          indexPrice: index,
        };
        if (PREDICTING_VENUES.includes(venue))
          reading.predictedFundingRate = fundingFromPremium(2 * premium - premiumAt(symbol, now - HOUR));
        return reading;
      });
      const since = lastPoll.get(symbol) ?? now - MINUTE;
      lastPoll.set(symbol, now);
      const liquidations = venues.flatMap((v) => liquidationsBetween(symbol, v, since, now));
      return { readings, liquidations };
    },
    async history(venue, symbol, metric, fromMs, toMs) {
      if (!venues.includes(venue) || !symbols.includes(symbol)) return undefined;
      const end = Math.min(toMs, clock.now() + 1);
      const out: SeriesPoint[] = [];
      if (metric === 'funding') {
        for (
          let t = Math.ceil(fromMs / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS;
          t < end;
          t += FUNDING_PERIOD_MS
        )
          out.push({ time: t, value: fundingAt(symbol, t), value2: null });
        return out;
      }
      // Open interest history at the hourly resolution venues keep.
      for (let t = Math.ceil(fromMs / HOUR) * HOUR; t < end; t += HOUR) {
        const usd = openInterestUsd(symbol, venue, t);
        out.push({ time: t, value: usd, value2: usd / price(symbol, t) });
      }
      return out;
    },
  };
}
