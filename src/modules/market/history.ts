import type { Clock } from '../../shared/clock.ts';
import { INTERVAL_MS } from '../identifiers/index.ts';
import { type Candle, floorTo, mergeByOpenTime, resample } from './candles.ts';
import { ROLLUP_INTERVALS } from './candle-builder.ts';
import { type ComputedHistory, DAY_MS, sourceMinutes } from './computed-history.ts';
import { MERGED, type MarketEngine } from './engine.ts';
import type { CandleRepository, StoredCandle } from './repository.ts';
import type { MarketSource } from './ports.ts';
import type { CandleQuery } from './types.ts';

const MINUTE = 60_000;
/** The model reads the last 3 days and 2 hours of minutes; the 24 h statistics read one day. */
const WINDOW_MINUTES = 3 * 1440 + 120;
/**
 * Days of merged bars the engine holds per symbol: the working window, which starts at a UTC day so that
 * every roll-up bar in memory is whole (up to one day more), and a quarter day of growth before trimming.
 */
export const MEMORY_DAYS = WINDOW_MINUTES / 1440 + 1.25;

/** Where the working window loaded at `now` starts: the model's span back from now, floored to a UTC day. */
export const windowStart = (now: number): number =>
  floorTo(floorTo(now, MINUTE) - WINDOW_MINUTES * MINUTE, DAY_MS);

/**
 * Where offered history starts: `historyDays` back from now floored to a UTC day (or the window's start if
 * earlier), and not before the source's own history (`since`).
 */
export const historyStart = (now: number, historyDays: number, since = Number.NEGATIVE_INFINITY): number =>
  Math.max(since, Math.min(floorTo(now - historyDays * DAY_MS, DAY_MS), windowStart(now)));

export interface HistoryDeps {
  clock: Clock;
  source: MarketSource;
  /** Present when the source computes history on read (nothing of the past is stored for it). */
  computed?: ComputedHistory;
  repository: Pick<CandleRepository, 'latestOpenTime' | 'range'>;
  engine: MarketEngine;
  enqueue: (rows: StoredCandle[]) => void;
}

/** A series' minutes as rows to store, with the roll-up bars built from them (whole when they start a UTC day). */
function seriesRows(symbol: string, venue: string, minutes: readonly Candle[]): StoredCandle[] {
  const rows: StoredCandle[] = minutes.map((c) => ({ ...c, symbol, venue, interval: '1m' }));
  for (const interval of ROLLUP_INTERVALS)
    for (const c of resample(minutes, INTERVAL_MS[interval])) rows.push({ ...c, symbol, venue, interval });
  return rows;
}

/** The venues' own rows of a span, when the source asks for them to be kept. */
function venueRows(symbol: string, source: MarketSource, venues: Map<string, Candle[]>): StoredCandle[] {
  if (!source.persistVenueHistory) return [];
  return [...venues].flatMap(([venue, minutes]) => seriesRows(symbol, venue, minutes));
}

/**
 * Loads one symbol's working window into the engine (the minutes it holds, built live meanwhile, win). A
 * source that computes history on read fills it from the source, stored minutes of earlier runs preferred;
 * any other source fills it from storage, and what storage lacks up to now is fetched from the source and
 * handed to `enqueue` to be stored.
 */
export async function fillWorkingWindow(symbol: string, deps: HistoryDeps): Promise<void> {
  const { source, repository, engine } = deps;
  const end = floorTo(deps.clock.now(), MINUTE);
  const from = windowStart(end);
  if (deps.computed) {
    const stored = await repository.range(symbol, MERGED, '1m', from, end, Number.MAX_SAFE_INTEGER);
    const span = await deps.computed.minutes(symbol, from, end);
    engine.loadHistory(symbol, mergeByOpenTime(span.merged, stored));
    for (const [venue, minutes] of span.venues) engine.loadVenueMinutes(symbol, venue, minutes.slice(-1440));
    return;
  }
  const latest = await repository.latestOpenTime(symbol, MERGED, '1m');
  const stored =
    latest !== undefined && latest >= from
      ? await repository.range(symbol, MERGED, '1m', from, end, Number.MAX_SAFE_INTEGER)
      : [];
  const fetchFrom = latest !== undefined && latest + MINUTE > from ? latest + MINUTE : from;
  if (fetchFrom >= end) {
    engine.loadHistory(symbol, stored);
    return;
  }
  const span = await sourceMinutes(source, symbol, fetchFrom, end);
  for (const [venue, minutes] of span.venues) engine.loadVenueMinutes(symbol, venue, minutes.slice(-1440));
  engine.loadHistory(symbol, mergeByOpenTime(span.merged, stored));
  if (span.merged.length === 0) return;
  // New merged minutes, every roll-up bucket they touch (as the engine now holds it), and the venues' own.
  const rows: StoredCandle[] = span.merged.map((c) => ({ ...c, symbol, venue: MERGED, interval: '1m' }));
  for (const interval of ROLLUP_INTERVALS) {
    const series = engine.memorySeries(symbol, interval)!;
    for (const c of series.since(floorTo(span.merged[0]!.openTime, INTERVAL_MS[interval])))
      rows.push({ ...c, symbol, venue: MERGED, interval });
  }
  rows.push(...venueRows(symbol, source, span.venues));
  deps.enqueue(rows);
}

/** Whether storage holds a whole UTC day of a symbol's merged minutes (its first and its last minute). */
async function storedDay(repository: Pick<CandleRepository, 'range'>, symbol: string, day: number) {
  const first = await repository.range(symbol, MERGED, '1m', day, day + MINUTE, 1);
  if (first.length === 0) return false;
  const last = await repository.range(symbol, MERGED, '1m', day + DAY_MS - MINUTE, day + DAY_MS, 1);
  return last.length > 0;
}

/**
 * The days of offered history before the working window: [historyStart, windowStart) in whole UTC days. The
 * deep backfill of a storing source walks them; a computing source needs none.
 */
export function backfillDays(now: number, historyDays: number, since?: number): number[] {
  const days: number[] = [];
  for (let day = historyStart(now, historyDays, since); day < windowStart(now); day += DAY_MS) days.push(day);
  return days;
}

/**
 * Fetches one day of a symbol's history from the source and hands it to `enqueue`, unless storage already has
 * it (so a backfill stopped half-way resumes where it stopped). Resolves to whether anything was fetched.
 */
export async function backfillDay(
  symbol: string,
  day: number,
  deps: Pick<HistoryDeps, 'source' | 'enqueue'> & { repository: Pick<CandleRepository, 'range'> },
): Promise<boolean> {
  if (await storedDay(deps.repository, symbol, day)) return false;
  const span = await sourceMinutes(deps.source, symbol, day, day + DAY_MS);
  if (span.merged.length)
    deps.enqueue([
      ...seriesRows(symbol, MERGED, span.merged),
      ...venueRows(symbol, deps.source, span.venues),
    ]);
  return true;
}

/**
 * Candles of a range, oldest first: the working window from memory, older ranges (and venues) from storage
 * — with what storage lacks computed, when the source computes history on read — and the merged bar in
 * progress (`openCandle`) when the range reaches it.
 */
export async function candlesBetween(
  query: CandleQuery,
  deps: {
    engine: MarketEngine;
    repository: Pick<CandleRepository, 'range'>;
    openCandle: (symbol: string, interval: CandleQuery['interval']) => Candle | undefined;
    computed?: ComputedHistory;
    /** Where offered history starts now (computed history is not offered before it). */
    historyFrom: number;
    now: number;
  },
): Promise<Candle[]> {
  const { engine, repository } = deps;
  const venue = query.venue ?? MERGED;
  const limit = Math.min(query.limit ?? 1000, 1000);
  const series = venue === MERGED ? engine.memorySeries(query.symbol, query.interval) : undefined;
  const memoryFrom = series?.first?.openTime ?? Number.POSITIVE_INFINITY;
  let out: Candle[] = [];
  if (query.fromMs < memoryFrom) {
    const olderTo = Math.min(query.toMs, memoryFrom);
    const stored = await repository.range(query.symbol, venue, query.interval, query.fromMs, olderTo, limit);
    // Computed only for closed minutes: the bar in progress comes from the live engine.
    const computedTo = Math.min(olderTo, floorTo(deps.now, MINUTE));
    const computedFrom = Math.max(query.fromMs, deps.historyFrom);
    out =
      deps.computed && computedFrom < computedTo
        ? await mergeLimited(
            stored,
            deps.computed.range(query.symbol, venue, query.interval, computedFrom, computedTo),
            limit,
          )
        : stored;
  }
  if (series && out.length < limit) {
    const after = out.at(-1)?.openTime ?? Number.NEGATIVE_INFINITY;
    for (const c of series.range(Math.max(query.fromMs, after + 1), query.toMs, limit - out.length))
      out.push(c);
  }
  if (venue === MERGED && out.length < limit) {
    const open = deps.openCandle(query.symbol, query.interval);
    const last = out.at(-1)?.openTime ?? Number.NEGATIVE_INFINITY;
    if (open && open.openTime > last && open.openTime >= query.fromMs && open.openTime < query.toMs)
      out.push(open);
  }
  return out;
}

/** The first `limit` bars of stored ∪ computed by open time, a stored bar winning over a computed one. */
async function mergeLimited(
  stored: readonly Candle[],
  computed: AsyncIterable<Candle>,
  limit: number,
): Promise<Candle[]> {
  const out: Candle[] = [];
  let i = 0;
  for await (const c of computed) {
    while (i < stored.length && stored[i]!.openTime < c.openTime && out.length < limit)
      out.push(stored[i++]!);
    if (out.length >= limit) return out;
    if (i < stored.length && stored[i]!.openTime === c.openTime) out.push(stored[i++]!);
    else out.push(c);
    if (out.length >= limit) return out;
  }
  while (i < stored.length && out.length < limit) out.push(stored[i++]!);
  return out;
}
