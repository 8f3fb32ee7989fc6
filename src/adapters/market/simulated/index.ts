import type { Candle, Level, MarketEvent, MarketSource } from '../../../modules/market/index.ts';
import type { Clock } from '../../../shared/clock.ts';
import { type PeriodicJob, periodicJob } from '../../../shared/periodic-job.ts';
import { PriceModel, type SymbolProfile, gaussian, hash, rng, venueProfile } from './model.ts';
import { profileOf } from './universe.ts';

export { MAX_SIMULATED_UNIVERSE, type SimulatedMarket, profileOf, simulatedUniverse } from './universe.ts';

export interface SimulatedOptions {
  symbols: readonly string[];
  venues?: readonly string[];
  seed: number;
  clock: Clock;
  /** Interval of live ticks (ms). Each tick moves every book and prints a few trades per venue. */
  tickMs?: number;
  /** Each symbol's price level, volatility and volume; default the universe's (`profileOf`, universe.ts). */
  profileOf?: (symbol: string) => SymbolProfile;
}

/** Funding settles every 8 h (00, 08, 16 UTC). */
const FUNDING_PERIOD_MS = 28_800_000;

const DEFAULT_VENUES = ['binance', 'coinbase', 'kraken', 'okx'] as const;

interface BookState {
  sequence: number;
  /** Grid index → size. */
  bids: Map<number, number>;
  asks: Map<number, number>;
  lastSnapshotAt: number;
  step: number;
  decimals: number;
}

/**
 * The simulated multi-venue market (the embedded default). History comes from `PriceModel` (a pure
 * function of seed and time); live ticks follow the same minute path with sub-minute noise, so a
 * restart regenerates its downtime and continues seamlessly.
 */
export function simulatedSource(options: SimulatedOptions): MarketSource & {
  model: PriceModel;
  /** Generates one tick at time `t` synchronously (benchmarks, tests). */
  tickAt(t: number, sink: (e: MarketEvent) => void): void;
} {
  const venues = [...(options.venues ?? DEFAULT_VENUES)];
  const symbols = [...options.symbols];
  const model = new PriceModel(options.seed, symbols, options.profileOf ?? profileOf);
  const tickMs = options.tickMs ?? 250;
  const books = new Map<string, BookState>();
  const g = gaussian(rng(hash(`${options.seed}|live|${options.clock.now()}`)));
  const u = rng(hash(`${options.seed}|live-u|${options.clock.now()}`));
  const ticking: PeriodicJob[] = [];
  let lastPrice = new Map<string, number>();
  const fundingMinute = new Map<string, number>();

  const latent = (symbol: string, t: number): number => {
    const m0 = Math.floor(t / 60_000) * 60_000;
    const f = (t - m0) / 60_000;
    const a = model.priceAtMinute(symbol, m0);
    const b = model.priceAtMinute(symbol, m0 + 60_000);
    const sigma = model.minuteVol(symbol, t);
    return a + (b - a) * f + a * sigma * 0.5 * Math.sqrt(f * (1 - f)) * g();
  };

  /** The funding rate from the 8 h trend at `t` (price `p`): 0.01 % plus 1 % of the trend, within ±0.3 %. */
  const fundingRate = (symbol: string, t: number, p: number): number => {
    const p8 = model.priceAtMinute(symbol, Math.floor((t - FUNDING_PERIOD_MS) / 60_000) * 60_000);
    return Math.max(-0.003, Math.min(0.003, 0.0001 + (p / p8 - 1) * 0.01));
  };

  const tickOf = (price: number): number => 10 ** (Math.floor(Math.log10(price)) - 5);
  const round = (x: number, tick: number) => Math.round(x / tick) * tick;

  function tickAt(t: number, sink: (e: MarketEvent) => void): void {
    for (const symbol of symbols) tickSymbol(symbol, t, sink);
  }

  /** One symbol's tick at time `t`: every venue's book moves, a few trades print, funding is refreshed. */
  function tickSymbol(symbol: string, t: number, sink: (e: MarketEvent) => void): void {
    const p = latent(symbol, t);
    const prev = lastPrice.get(symbol) ?? p;
    lastPrice.set(symbol, p);
    const sigma = model.minuteVol(symbol, t) * Math.sqrt(tickMs / 60_000);
    const push = Math.max(-0.2, Math.min(0.2, (p / prev - 1) / (sigma || 1e-9) / 4));
    const prof = model.profile(symbol);
    // Book depth scales with the symbol's volume (BTC's 3e9 USD a day = the venue profile's depth).
    const liquidity = prof.dailyQuoteVolume / 3e9;
    for (const venue of venues) {
      const v = venueProfile(venue);
      const exchangeTime = t - v.latencyMs - Math.floor(u() * 10);
      const mid = p * (1 + v.offsetBps / 10_000 + 0.00001 * g());
      const tick = tickOf(mid);
      const key = `${venue}|${symbol}`;
      let state = books.get(key);
      // Book on a fixed price grid (multiples of `step`): ten levels next to the touch, then every 4th
      // grid price to ~60 steps, every 16th to ~300 steps (3 % at 1 bp). Levels persist while the mid
      // moves; each tick re-sizes the touch and a few random levels, so deltas stay small as on a venue.
      const half = Math.max(tick, (mid * v.halfSpreadBps) / 10_000);
      if (!state || t - state.lastSnapshotAt >= 300_000) {
        const step = Math.max(tick, round((mid * v.levelStepBps) / 10_000, tick));
        state = {
          sequence: (state?.sequence ?? 0) + 1,
          bids: new Map(),
          asks: new Map(),
          lastSnapshotAt: t,
          step,
          decimals: Math.max(0, -Math.floor(Math.log10(tick))),
        };
        books.set(key, state);
      }
      const st = state;
      const levelUsd = (distance: number) =>
        v.levelUsd * liquidity * (0.4 + 0.04 * distance) * Math.exp(0.3 * g());
      const priceOf = (idx: number) => Number((idx * st.step).toFixed(st.decimals));
      const touchBid = Math.floor((mid - half) / st.step);
      const touchAsk = Math.ceil((mid + half) / st.step);
      const changedBids: Level[] = [];
      const changedAsks: Level[] = [];
      const update = (
        side: Map<number, number>,
        touch: number,
        dir: 1 | -1,
        changed: Level[],
        pressure: number,
      ) => {
        // Remove levels on the wrong side of the touch or no longer wanted.
        for (const idx of side.keys()) {
          const j = (touch - idx) * dir;
          if (j < 0 || !isKeptLevel(j, idx)) {
            side.delete(idx);
            changed.push([priceOf(idx), 0]);
          }
        }
        for (const j of keptDistances(touch, dir)) {
          const idx = touch - j * dir;
          const fresh = !side.has(idx);
          if (fresh || j < 2 || u() < 0.04) {
            const price = priceOf(idx);
            const size = Math.max(0.0001, round(((levelUsd(j) * (1 - pressure)) / price) * 1e4, 1) / 1e4);
            side.set(idx, size);
            changed.push([price, size]);
          }
        }
      };
      // Trade-flow pressure thins the side being hit.
      update(st.bids, touchBid, 1, changedBids, push / 2);
      update(st.asks, touchAsk, -1, changedAsks, -push / 2);
      st.sequence++;
      if (st.lastSnapshotAt === t) {
        sink({
          kind: 'book_snapshot',
          venue,
          symbol,
          sequence: st.sequence,
          bids: sortLevels(st.bids, st, true),
          asks: sortLevels(st.asks, st, false),
          exchangeTime,
          receiveTime: t,
        });
      } else {
        sink({
          kind: 'book_delta',
          venue,
          symbol,
          sequence: st.sequence,
          bids: changedBids,
          asks: changedAsks,
          exchangeTime,
          receiveTime: t,
        });
      }
      const bestBid = priceOf(touchBid);
      const bestAsk = priceOf(touchAsk);
      // Trades: count ~ activity, aggressor biased by the move, printed at the touch.
      const perTick = (((prof.dailyQuoteVolume * v.share) / 86_400_000) * tickMs) | 0;
      const n = 1 + Math.floor(u() * 3);
      for (let i = 0; i < n; i++) {
        const buy = u() < 0.5 + push;
        const price = buy ? bestAsk : bestBid;
        const size = ((perTick / n) * Math.exp(0.6 * g() - 0.18)) / price;
        sink({
          kind: 'trade',
          venue,
          symbol,
          price,
          size,
          side: buy ? 'buy' : 'sell',
          exchangeTime: exchangeTime + i,
          receiveTime: t,
        });
      }
    }
    // Perpetual funding: predicted rate from the 8 h trend, settled every 8 h (00, 08, 16 UTC).
    const minute = Math.floor(t / 60_000);
    if (fundingMinute.get(symbol) !== minute) {
      fundingMinute.set(symbol, minute);
      const rate = fundingRate(symbol, t, p);
      const next = Math.floor(t / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS + FUNDING_PERIOD_MS;
      for (const venue of venues) {
        if (!venueProfile(venue).perpetual) continue;
        sink({
          kind: 'funding',
          venue,
          symbol,
          rate,
          markPrice: p * (1 + rate * 2),
          indexPrice: p,
          nextFundingTime: next,
          exchangeTime: t,
          receiveTime: t,
        });
      }
    }
  }

  return {
    kind: 'simulated',
    historyOnRead: true,
    venues,
    symbols,
    model,
    tickAt,
    async *backfill(venue: string, symbol: string, fromMs: number, toMs: number): AsyncIterable<Candle[]> {
      const day = 86_400_000;
      for (let start = fromMs; start < toMs; start = Math.floor(start / day) * day + day) {
        const end = Math.min(toMs, Math.floor(start / day) * day + day);
        yield model.venueCandles(symbol, venue, start, end);
      }
    },
    /** Settled rates: the same rule as the live rate, at each settlement, on the minute path (no noise). */
    async fundingHistory(symbol, fromMs, toMs) {
      if (!symbols.includes(symbol)) return [];
      const out = [];
      const end = Math.min(toMs, options.clock.now() + 1);
      for (let t = Math.ceil(fromMs / FUNDING_PERIOD_MS) * FUNDING_PERIOD_MS; t < end; t += FUNDING_PERIOD_MS)
        out.push({ time: t, rate: fundingRate(symbol, t, model.priceAtMinute(symbol, t)) });
      return out;
    },
    async start(sink) {
      lastPrice = new Map();
      // Each symbol ticks on its own phase of the interval, as a venue's messages arrive spread in time, so
      // one timer callback never holds the event loop for every symbol's books at once (a request waiting
      // behind it would wait for all of them).
      symbols.forEach((symbol, i) => {
        // A failed tick is counted (meridian_job_failures_total); the next tick tries again.
        const job = periodicJob({
          name: 'simulated-market',
          everyMs: tickMs,
          offsetMs: (tickMs * i) / symbols.length,
          run: () => tickSymbol(symbol, options.clock.now(), sink),
        });
        void job.runNow();
        job.start();
        ticking.push(job);
      });
    },
    resync(venue, symbol) {
      const s = books.get(`${venue}|${symbol}`);
      if (s) s.lastSnapshotAt = Number.NEGATIVE_INFINITY;
    },
    async stop() {
      await Promise.all(ticking.splice(0).map((job) => job.stop()));
    },
  };
}

function sortLevels(m: Map<number, number>, st: BookState, descending: boolean): Level[] {
  const out: Level[] = [...m.entries()].map(([idx, size]) => [
    Number((idx * st.step).toFixed(st.decimals)),
    size,
  ]);
  out.sort(descending ? (a, b) => b[0] - a[0] : (a, b) => a[0] - b[0]);
  return out;
}

/**
 * Whether a simulated book keeps the level at grid index `idx`, `j` steps from the touch: ten levels next to
 * the touch, then every 4th grid price to 60 steps, every 16th to 300.
 */
export function isKeptLevel(j: number, idx: number): boolean {
  return j < 10 || (j < 60 && idx % 4 === 0) || (j < 300 && idx % 16 === 0);
}

const keptBands = [
  { from: 0, to: 10, every: 1 },
  { from: 10, to: 60, every: 4 },
  { from: 60, to: 300, every: 16 },
] as const;

/**
 * The distances from the touch (grid index `touch`, levels at `touch - j * dir`) of every level
 * `isKeptLevel` keeps, in increasing order: ≈ 37 of the 300, found by stepping along each band's grid instead
 * of testing every distance (the feed ticks every venue's book four times a second, on the server's thread).
 */
export function keptDistances(touch: number, dir: 1 | -1): number[] {
  const out: number[] = [];
  for (const { from, to, every } of keptBands) {
    // The first j ≥ from whose index touch - j * dir is a multiple of `every`.
    const r = (((touch - from * dir) % every) + every) % every;
    for (let j = from + (dir === 1 ? r : (every - r) % every); j < to; j += every) out.push(j);
  }
  return out;
}
