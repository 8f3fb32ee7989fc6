import ccxt from 'ccxt';
import type {
  DerivativesSource,
  Liquidation,
  SeriesPoint,
  VenueReading,
} from '../../modules/derivatives/index.ts';
import { DERIVATIVES_METRICS } from '../../modules/derivatives/index.ts';
import { splitSymbol } from '../../modules/identifiers/index.ts';
import { exponentialBackoff } from '../../shared/backoff.ts';
import type { Clock } from '../../shared/clock.ts';
import { createSleeper } from '../../shared/sleeper.ts';

/** ccxt's unified structures, the fields read here (docs: "Funding Rate Structure", "Open Interest Structure"). */
export interface CcxtFundingRate {
  timestamp?: number;
  fundingRate?: number;
  markPrice?: number;
  indexPrice?: number;
  fundingTimestamp?: number;
  nextFundingRate?: number;
  interval?: string;
}
export interface CcxtOpenInterest {
  timestamp?: number;
  openInterestAmount?: number;
  openInterestValue?: number;
}
export interface CcxtLiquidation {
  timestamp?: number;
  price?: number;
  contracts?: number;
  contractSize?: number;
  baseValue?: number;
  quoteValue?: number;
  /** The liquidation order's side: `sell` closes a long, `buy` a short (some venues say long/short). */
  side?: string;
}
interface CcxtMarket {
  swap?: boolean;
  linear?: boolean;
  inverse?: boolean;
  contractSize?: number;
}

/** The part of a ccxt (pro) exchange this adapter uses; tests pass stand-ins answering recorded responses. */
export interface CcxtDerivativesExchange {
  id: string;
  has: Record<string, unknown>;
  markets?: Record<string, CcxtMarket>;
  loadMarkets(): Promise<Record<string, unknown>>;
  fetchFundingRate?(symbol: string): Promise<CcxtFundingRate>;
  fetchFundingRateHistory?(
    symbol: string,
    since?: number,
    limit?: number,
  ): Promise<Array<{ timestamp?: number; fundingRate?: number }>>;
  fetchOpenInterest?(symbol: string): Promise<CcxtOpenInterest>;
  fetchOpenInterestHistory?(
    symbol: string,
    timeframe?: string,
    since?: number,
    limit?: number,
  ): Promise<CcxtOpenInterest[]>;
  watchLiquidations?(symbol: string): Promise<CcxtLiquidation[]>;
  close(): Promise<unknown>;
}

export interface CcxtDerivativesOptions {
  venues: readonly string[];
  symbols: readonly string[];
  clock: Clock;
  createExchange?: (venue: string) => CcxtDerivativesExchange | Promise<CcxtDerivativesExchange>;
  backoff?: { initialMs: number; maxMs: number };
  log?: { warn(obj: unknown, msg?: string): void };
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const hours = (interval: string | undefined): number | undefined => {
  const m = /^(\d+)h$/.exec(interval ?? '');
  return m ? Number(m[1]) : undefined;
};

/** The default exchange: ccxt pro (WebSocket liquidations) with swap markets as the default type. */
export const createCcxtDerivativesExchange = (venue: string): CcxtDerivativesExchange => {
  const pro = (ccxt as unknown as { pro: Record<string, new (config: object) => CcxtDerivativesExchange> })
    .pro;
  const Ctor = pro[venue];
  if (!Ctor) throw new Error(`ccxt has no WebSocket (pro) exchange named ${venue}`);
  return new Ctor({ enableRateLimit: true, options: { defaultType: 'swap' } });
};

/** A canonical symbol's perpetual on the venue: BASE/QUOTE:QUOTE, else USDC- or USD-settled, else inverse. */
export function resolvePerpetual(ex: CcxtDerivativesExchange, symbol: string): string | undefined {
  const { base, quote } = splitSymbol(symbol);
  const markets = ex.markets ?? {};
  for (const s of [
    `${base}/${quote}:${quote}`,
    `${base}/USDC:USDC`,
    `${base}/USD:USD`,
    `${base}/USD:${base}`,
  ])
    if (markets[s] && markets[s].swap !== false) return s;
  return undefined;
}

/**
 * Perpetual venues through ccxt: funding (rate, next time, the venue's predicted rate where it gives one,
 * mark and index for basis) and open interest polled over REST, liquidations from `watchLiquidations` where
 * the venue streams them (reconnecting with backoff). A venue that lacks a method (`has[…]` false) answers
 * that metric as absent, never 0; a venue that fails a poll is left out of it (its last reading ages into
 * stale). History: `fetchFundingRateHistory` and hourly `fetchOpenInterestHistory`, paged.
 */
export function ccxtDerivativesSource(options: CcxtDerivativesOptions): DerivativesSource & {
  exchanges: Map<string, CcxtDerivativesExchange>;
} {
  const create = options.createExchange ?? createCcxtDerivativesExchange;
  const backoff = options.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
  const exchanges = new Map<string, CcxtDerivativesExchange>();
  const loading = new Map<string, Promise<CcxtDerivativesExchange>>();
  const buffered = new Map<string, Liquidation[]>();
  const warned = new Set<string>();
  const { sleep, wakeAll } = createSleeper();
  const loops: Promise<void>[] = [];
  let running = false;

  const warnOnce = (key: string, obj: object, msg: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    options.log?.warn(obj, msg);
  };

  function exchange(venue: string): Promise<CcxtDerivativesExchange> {
    let p = loading.get(venue);
    if (!p) {
      p = (async () => {
        const ex = await create(venue);
        await ex.loadMarkets();
        exchanges.set(venue, ex);
        return ex;
      })();
      // A failed load is tried again at the next poll with a fresh exchange object.
      p.catch(() => loading.delete(venue));
      loading.set(venue, p);
    }
    return p;
  }

  const has = (ex: CcxtDerivativesExchange, method: keyof CcxtDerivativesExchange) =>
    Boolean(ex.has[method]) && typeof ex[method] === 'function';

  async function readVenue(venue: string, symbol: string): Promise<VenueReading | undefined> {
    const ex = await exchange(venue);
    const market = resolvePerpetual(ex, symbol);
    if (!market) return undefined;
    const info = ex.markets?.[market] ?? {};
    const now = options.clock.now();
    const reading: VenueReading = { venue, symbol, time: now };
    let time: number | undefined;
    if (has(ex, 'fetchFundingRate')) {
      const f = await ex.fetchFundingRate!(market);
      if (finite(f.fundingRate)) reading.fundingRate = f.fundingRate;
      if (finite(f.nextFundingRate)) reading.predictedFundingRate = f.nextFundingRate;
      if (finite(f.fundingTimestamp)) reading.nextFundingTime = f.fundingTimestamp;
      const h = hours(f.interval);
      if (h !== undefined) reading.fundingIntervalHours = h;
      if (finite(f.markPrice) && f.markPrice > 0) reading.markPrice = f.markPrice;
      if (finite(f.indexPrice) && f.indexPrice > 0) reading.indexPrice = f.indexPrice;
      if (finite(f.timestamp)) time = f.timestamp;
    }
    if (has(ex, 'fetchOpenInterest')) {
      const oi = await ex.fetchOpenInterest!(market);
      const size = info.contractSize ?? 1;
      if (finite(oi.openInterestAmount)) reading.openInterestContracts = oi.openInterestAmount;
      if (finite(oi.openInterestValue)) reading.openInterestUsd = oi.openInterestValue;
      else if (finite(oi.openInterestAmount)) {
        // Inverse contracts are worth `contractSize` USD each; linear ones `contractSize` base units.
        if (info.inverse) reading.openInterestUsd = oi.openInterestAmount * size;
        else if (reading.markPrice !== undefined)
          reading.openInterestUsd = oi.openInterestAmount * size * reading.markPrice;
      }
      if (finite(oi.timestamp)) time = Math.max(time ?? 0, oi.timestamp);
    }
    reading.time = time ?? now;
    return reading;
  }

  function watchLiquidations(venue: string, symbol: string, ex: CcxtDerivativesExchange, market: string) {
    const delays = exponentialBackoff(backoff);
    const seen = new Set<string>();
    return (async () => {
      while (running) {
        try {
          const batch = await ex.watchLiquidations!(market);
          delays.reset();
          for (const l of batch) {
            const liq = toLiquidation(venue, symbol, l, options.clock.now());
            if (!liq) continue;
            const key = `${liq.time}|${liq.side}|${liq.size}|${liq.price}`;
            if (seen.has(key)) continue;
            seen.add(key);
            if (seen.size > 5_000) seen.clear();
            const list = buffered.get(symbol) ?? [];
            list.push(liq);
            buffered.set(symbol, list);
          }
        } catch (error) {
          if (!running) return;
          options.log?.warn(
            { venue, symbol, err: (error as Error).message },
            'derivatives: liquidations stream failed; retrying',
          );
          await sleep(delays.next());
        }
      }
    })();
  }

  const liquidationVenues: string[] = [];
  return {
    kind: 'ccxt',
    simulated: false,
    venues: [...options.venues],
    symbols: [...options.symbols],
    metrics: DERIVATIVES_METRICS,
    liquidationVenues,
    exchanges,
    async start() {
      running = true;
      for (const venue of options.venues) {
        try {
          const ex = await exchange(venue);
          if (!has(ex, 'watchLiquidations')) continue;
          liquidationVenues.push(venue);
          for (const symbol of options.symbols) {
            const market = resolvePerpetual(ex, symbol);
            if (market) loops.push(watchLiquidations(venue, symbol, ex, market));
          }
        } catch (error) {
          options.log?.warn(
            { venue, err: (error as Error).message },
            'derivatives: venue not loaded at start',
          );
        }
      }
    },
    async poll(symbol) {
      const readings: VenueReading[] = [];
      await Promise.all(
        options.venues.map(async (venue) => {
          try {
            const r = await readVenue(venue, symbol);
            if (r) readings.push(r);
            warned.delete(`${venue}|${symbol}`);
          } catch (error) {
            warnOnce(
              `${venue}|${symbol}`,
              { venue, symbol, err: (error as Error).message },
              'derivatives: venue poll failed',
            );
          }
        }),
      );
      readings.sort((a, b) => options.venues.indexOf(a.venue) - options.venues.indexOf(b.venue));
      const liquidations = buffered.get(symbol) ?? [];
      buffered.delete(symbol);
      return { readings, liquidations };
    },
    async history(venue, symbol, metric, fromMs, toMs) {
      const ex = await exchange(venue);
      const market = resolvePerpetual(ex, symbol);
      if (!market) return undefined;
      const out: SeriesPoint[] = [];
      let since = fromMs;
      if (metric === 'funding') {
        if (!has(ex, 'fetchFundingRateHistory')) return undefined;
        while (since < toMs) {
          const page = await ex.fetchFundingRateHistory!(market, since, 1000);
          const points = page.filter(
            (p) => finite(p.timestamp) && finite(p.fundingRate) && p.timestamp >= since && p.timestamp < toMs,
          );
          if (points.length === 0) break;
          for (const p of points) out.push({ time: p.timestamp!, value: p.fundingRate!, value2: null });
          since = points.at(-1)!.timestamp! + 1;
        }
        return out;
      }
      if (!has(ex, 'fetchOpenInterestHistory')) return undefined;
      const info = ex.markets?.[market] ?? {};
      while (since < toMs) {
        const page = await ex.fetchOpenInterestHistory!(market, '1h', since, 500);
        const points = page.filter((p) => finite(p.timestamp) && p.timestamp >= since && p.timestamp < toMs);
        if (points.length === 0) break;
        for (const p of points) {
          const contracts = finite(p.openInterestAmount) ? p.openInterestAmount : null;
          const usd = finite(p.openInterestValue)
            ? p.openInterestValue
            : info.inverse && contracts !== null
              ? contracts * (info.contractSize ?? 1)
              : null;
          // A point without a USD value is no open-interest figure we can sum: left out.
          if (usd !== null) out.push({ time: p.timestamp!, value: usd, value2: contracts });
        }
        since = points.at(-1)!.timestamp! + 1;
      }
      return out;
    },
    async stop() {
      running = false;
      wakeAll();
      await Promise.all(
        [...exchanges.values()].map((ex) =>
          ex.close().catch(() => {
            // Discarded either way.
          }),
        ),
      );
      await Promise.race([Promise.allSettled(loops), new Promise((r) => setTimeout(r, 2_000))]);
      loops.length = 0;
    },
  };
}

/** A ccxt liquidation as ours; undefined when it lacks a time, a price or a size. */
export function toLiquidation(
  venue: string,
  symbol: string,
  l: CcxtLiquidation,
  now: number,
): Liquidation | undefined {
  const side =
    l.side === 'sell' || l.side === 'long'
      ? 'long'
      : l.side === 'buy' || l.side === 'short'
        ? 'short'
        : undefined;
  const price = l.price;
  const size = finite(l.baseValue)
    ? l.baseValue
    : finite(l.contracts)
      ? l.contracts * (l.contractSize ?? 1)
      : undefined;
  if (!side || !finite(price) || price <= 0 || size === undefined || size <= 0) return undefined;
  const usd = finite(l.quoteValue) ? l.quoteValue : size * price;
  return { venue, symbol, time: finite(l.timestamp) ? l.timestamp : now, side, price, size, usd };
}
