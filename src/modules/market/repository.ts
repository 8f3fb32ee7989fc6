import type { Interval } from '../identifiers/index.ts';
import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import type { Candle } from './candles.ts';

export interface StoredCandle extends Candle {
  symbol: string;
  venue: string;
  interval: Interval;
}

/**
 * The candle store port. Kysely (repository.kysely.ts) serves PGlite and PostgreSQL;
 * `createMemoryCandleRepository` is its test twin.
 */
export interface CandleRepository {
  /**
   * Inserts or replaces by (symbol, venue, interval, open_time). Batched internally. With the writer's
   * leadership term, all batches are one transaction fenced by that term: StaleLeaderError, nothing written,
   * when the term is no longer current.
   */
  upsert(rows: readonly StoredCandle[], term?: LeaderTerm): Promise<void>;
  /** Rows with fromMs ≤ open_time < toMs, oldest first, at most `limit`. */
  range(
    symbol: string,
    venue: string,
    interval: Interval,
    fromMs: number,
    toMs: number,
    limit: number,
  ): Promise<Candle[]>;
  /** Open time of the newest stored candle, undefined when none. */
  latestOpenTime(symbol: string, venue: string, interval: Interval): Promise<number | undefined>;
  /** The newest candle with open_time ≤ atMs. */
  at(symbol: string, venue: string, interval: Interval, atMs: number): Promise<Candle | undefined>;
}

/** In-memory twin of the candle store for fast tests. */
export function createMemoryCandleRepository(): CandleRepository & { size(): number } {
  const series = new Map<string, Map<number, Candle>>();
  const key = (s: string, v: string, i: string) => `${s}|${v}|${i}`;
  const sorted = (s: string, v: string, i: string) =>
    [...(series.get(key(s, v, i))?.values() ?? [])].sort((a, b) => a.openTime - b.openTime);
  return {
    async upsert(rows, term) {
      refuseLostTerm(term);
      for (const r of rows) {
        const k = key(r.symbol, r.venue, r.interval);
        let m = series.get(k);
        if (!m) {
          m = new Map();
          series.set(k, m);
        }
        const { symbol: _s, venue: _v, interval: _i, ...candle } = r;
        m.set(r.openTime, candle);
      }
    },
    async range(symbol, venue, interval, fromMs, toMs, limit) {
      return sorted(symbol, venue, interval)
        .filter((c) => c.openTime >= fromMs && c.openTime < toMs)
        .slice(0, limit);
    },
    async latestOpenTime(symbol, venue, interval) {
      return sorted(symbol, venue, interval).at(-1)?.openTime;
    },
    async at(symbol, venue, interval, atMs) {
      return sorted(symbol, venue, interval)
        .filter((c) => c.openTime <= atMs)
        .at(-1);
    },
    size: () => [...series.values()].reduce((n, m) => n + m.size, 0),
  };
}
