import type { Clock } from '../../shared/clock.ts';
import { INTERVAL_MS } from '../identifiers/index.ts';
import { type Candle, floorTo, mergeVenueCandles, resample } from './candles.ts';
import { ROLLUP_INTERVALS } from './candle-builder.ts';
import { MERGED, type MarketEngine } from './engine.ts';
import type { CandleRepository, StoredCandle } from './repository.ts';
import type { MarketSource } from './ports.ts';
import type { CandleQuery } from './types.ts';

const DAY = 86_400_000;

/**
 * Loads `historyDays` of 1m history per symbol into the engine at start: the stored merged minutes, then what
 * storage lacks up to now from the source's backfill (per venue, merged per minute). The new merged minutes and
 * every roll-up bucket they touch — and the venues' own minutes and roll-ups when the source asks for it — are
 * handed to `enqueue` to be stored.
 */
export async function loadHistory(deps: {
  clock: Clock;
  symbols: readonly string[];
  historyDays: number;
  source: MarketSource;
  repository: Pick<CandleRepository, 'latestOpenTime' | 'range'>;
  engine: MarketEngine;
  enqueue: (rows: StoredCandle[]) => void;
  log?: { info(obj: unknown, msg?: string): void };
}): Promise<void> {
  const { source, repository, engine, enqueue } = deps;
  const end = floorTo(deps.clock.now(), 60_000);
  const historyFrom = end - deps.historyDays * DAY;
  for (const symbol of deps.symbols) {
    const latest = await repository.latestOpenTime(symbol, MERGED, '1m');
    const stored =
      latest !== undefined && latest >= historyFrom
        ? await repository.range(symbol, MERGED, '1m', historyFrom, end, Number.MAX_SAFE_INTEGER)
        : [];
    const genFrom = latest !== undefined && latest + 60_000 > historyFrom ? latest + 60_000 : historyFrom;
    // Missing minutes from the source, per venue, merged per minute.
    const byMinute = new Map<number, Candle[]>();
    const venueRows: StoredCandle[] = [];
    if (genFrom < end) {
      for (const venue of source.venues) {
        const venueMinutes: Candle[] = [];
        for await (const chunk of source.backfill(venue, symbol, genFrom, end)) {
          for (const c of chunk) {
            if (c.openTime < genFrom || c.openTime >= end) continue;
            venueMinutes.push(c);
            let list = byMinute.get(c.openTime);
            if (!list) {
              list = [];
              byMinute.set(c.openTime, list);
            }
            list.push(c);
          }
        }
        engine.loadVenueMinutes(symbol, venue, venueMinutes.slice(-1440));
        if (source.persistVenueHistory) {
          for (const c of venueMinutes) venueRows.push({ ...c, symbol, venue, interval: '1m' });
          for (const interval of ROLLUP_INTERVALS) {
            for (const c of resample(venueMinutes, INTERVAL_MS[interval])) {
              venueRows.push({ ...c, symbol, venue, interval });
            }
          }
        }
      }
    }
    const generated = [...byMinute.keys()]
      .sort((a, b) => a - b)
      .map((t) => mergeVenueCandles(byMinute.get(t)!)!);
    engine.loadHistory(symbol, [...stored, ...generated]);
    // Persist new merged minutes and every roll-up bucket they touch.
    const rows: StoredCandle[] = generated.map((c) => ({
      ...c,
      symbol,
      venue: MERGED,
      interval: '1m' as const,
    }));
    if (generated.length) {
      for (const interval of ROLLUP_INTERVALS) {
        const series = engine.memorySeries(symbol, interval)!;
        for (const c of series.since(floorTo(generated[0]!.openTime, INTERVAL_MS[interval]))) {
          rows.push({ ...c, symbol, venue: MERGED, interval });
        }
      }
    }
    enqueue(rows);
    enqueue(venueRows);
    deps.log?.info(
      { symbol, stored: stored.length, generated: generated.length, from: new Date(genFrom).toISOString() },
      'market history ready',
    );
  }
}

/**
 * Candles of a range, oldest first: the recent merged history from memory, older ranges (and venues) from
 * storage, and the merged bar in progress (`openCandle`) when the range reaches it.
 */
export async function candlesBetween(
  query: CandleQuery,
  deps: {
    engine: MarketEngine;
    repository: Pick<CandleRepository, 'range'>;
    openCandle: (symbol: string, interval: CandleQuery['interval']) => Candle | undefined;
  },
): Promise<Candle[]> {
  const { engine, repository } = deps;
  const venue = query.venue ?? MERGED;
  const limit = Math.min(query.limit ?? 1000, 1000);
  const series = venue === MERGED ? engine.memorySeries(query.symbol, query.interval) : undefined;
  let out: Candle[];
  // Memory holds the recent merged history; older ranges (and venues) come from storage.
  if (series?.first && series.first.openTime <= query.fromMs) {
    out = series.range(query.fromMs, query.toMs, limit);
  } else {
    out = await repository.range(query.symbol, venue, query.interval, query.fromMs, query.toMs, limit);
    if (venue === MERGED && series?.first && out.length < limit) {
      const after = out.at(-1)?.openTime ?? query.fromMs - 1;
      for (const c of series.range(
        Math.max(after + 1, series.first.openTime),
        query.toMs,
        limit - out.length,
      )) {
        out.push(c);
      }
    }
  }
  if (venue === MERGED && out.length < limit) {
    const open = deps.openCandle(query.symbol, query.interval);
    const last = out.at(-1)?.openTime ?? Number.NEGATIVE_INFINITY;
    if (open && open.openTime > last && open.openTime >= query.fromMs && open.openTime < query.toMs)
      out.push(open);
  }
  return out;
}
