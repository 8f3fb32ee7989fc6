import { INTERVAL_MS, type Interval } from '../identifiers/index.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Candle, mergeVenueCandles, resample } from './candles.ts';
import { ROLLUP_INTERVALS } from './candle-builder.ts';
import { MERGED } from './engine.ts';
import type { MarketSource } from './ports.ts';

export const DAY_MS = 86_400_000;
/** Day entries kept computed (each ≈ 1,900 bars of one symbol's series, 1m and roll-ups: ≈ 150 KB). */
const DEFAULT_CACHE_DAYS = 48;

/** One UTC day of a symbol's series (merged, or one venue's), per interval, oldest first. */
type DayBars = Map<Interval, Candle[]>;

async function venueMinutes(
  source: MarketSource,
  venue: string,
  symbol: string,
  fromMs: number,
  toMs: number,
): Promise<Candle[]> {
  const out: Candle[] = [];
  for await (const chunk of source.backfill(venue, symbol, fromMs, toMs))
    for (const c of chunk) if (c.openTime >= fromMs && c.openTime < toMs) out.push(c);
  return out;
}

/**
 * The merged minutes of [fromMs, toMs) from a source's backfill, and each venue's own: the venues' minutes
 * merged per minute, as the live engine merges closed venue bars (without its outlier exclusion, which needs
 * live books).
 */
export async function sourceMinutes(
  source: MarketSource,
  symbol: string,
  fromMs: number,
  toMs: number,
): Promise<{ merged: Candle[]; venues: Map<string, Candle[]> }> {
  const venues = new Map<string, Candle[]>();
  const byMinute = new Map<number, Candle[]>();
  for (const venue of source.venues) {
    const list = await venueMinutes(source, venue, symbol, fromMs, toMs);
    venues.set(venue, list);
    // A computing source builds days without I/O: give the event loop back between venues.
    await nextTurn();
    for (const c of list) {
      const at = byMinute.get(c.openTime);
      if (at) at.push(c);
      else byMinute.set(c.openTime, [c]);
    }
  }
  const merged = [...byMinute.keys()].sort((a, b) => a - b).map((t) => mergeVenueCandles(byMinute.get(t)!)!);
  return { merged, venues };
}

/**
 * History a source computes on read (`MarketSource.historyOnRead`, the simulated market: a pure function of
 * seed and time), so nothing is generated or stored up front: a day is built from the venues' minutes when a
 * read reaches it and kept in a small LRU, so paging through a range does not build a day twice.
 */
export function createComputedHistory(source: MarketSource, cacheDays = DEFAULT_CACHE_DAYS) {
  const cache = new Map<string, DayBars>();

  /** A day's bars up to `untilMs` (a day still running is built up to then, and not kept). */
  async function day(symbol: string, venue: string, dayStart: number, untilMs: number): Promise<DayBars> {
    const whole = dayStart + DAY_MS <= untilMs;
    const key = `${symbol}|${venue}|${dayStart}`;
    const hit = whole ? cache.get(key) : undefined;
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const end = Math.min(dayStart + DAY_MS, untilMs);
    const oneMinute =
      venue === MERGED
        ? (await sourceMinutes(source, symbol, dayStart, end)).merged
        : await venueMinutes(source, venue, symbol, dayStart, end);
    const bars: DayBars = new Map([['1m', oneMinute]]);
    for (const interval of ROLLUP_INTERVALS) bars.set(interval, resample(oneMinute, INTERVAL_MS[interval]));
    if (!whole) return bars;
    cache.set(key, bars);
    if (cache.size > cacheDays) cache.delete(cache.keys().next().value!);
    return bars;
  }

  return {
    minutes: (symbol: string, fromMs: number, toMs: number) => sourceMinutes(source, symbol, fromMs, toMs),
    /**
     * Closed bars of [fromMs, toMs), oldest first, day by day; the caller stops iterating once it has enough.
     * `toMs` must not pass the current minute; a bar it cuts is left out (the bar in progress is the live
     * engine's).
     */
    async *range(
      symbol: string,
      venue: string,
      interval: Interval,
      fromMs: number,
      toMs: number,
    ): AsyncIterable<Candle> {
      if (venue !== MERGED && !source.venues.includes(venue)) return;
      for (let dayStart = Math.floor(fromMs / DAY_MS) * DAY_MS; dayStart < toMs; dayStart += DAY_MS) {
        for (const c of (await day(symbol, venue, dayStart, toMs)).get(interval) ?? []) {
          if (c.openTime < fromMs) continue;
          // A bar `toMs` cuts is not closed yet: the caller takes it from the live engine.
          if (c.openTime + INTERVAL_MS[interval] > toMs) return;
          yield { ...c };
        }
      }
    },
    /** Days held computed (tests, metrics). */
    cachedDays: () => cache.size,
  };
}

export type ComputedHistory = ReturnType<typeof createComputedHistory>;
