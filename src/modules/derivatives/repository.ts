import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import type { DerivativesMetric, SeriesPoint } from './types.ts';

/** A bucket of a series: its start, the time of its newest point, and the values (see `buckets`). */
export interface Bucket extends SeriesPoint {
  start: number;
}

export interface StoredPoint extends SeriesPoint {
  symbol: string;
  metric: DerivativesMetric;
}

/**
 * The derivatives series store. Kysely (repository.kysely.ts) serves PGlite and PostgreSQL;
 * `createMemoryDerivativesRepository` is its test twin.
 */
export interface DerivativesRepository {
  /**
   * Inserts or replaces by (symbol, metric, time), in one transaction; with the writer's leadership term,
   * fenced by it (StaleLeaderError, nothing written, when the term is no longer current).
   */
  upsert(rows: readonly StoredPoint[], term?: LeaderTerm): Promise<void>;
  /** Points with fromMs ≤ time < toMs, oldest first, at most `limit`. */
  range(
    symbol: string,
    metric: DerivativesMetric,
    fromMs: number,
    toMs: number,
    limit: number,
  ): Promise<SeriesPoint[]>;
  /**
   * Points gathered into buckets of `intervalMs` (aligned to the epoch) with fromMs ≤ time < toMs, oldest first,
   * at most `limit` buckets holding data: per bucket the newest point (`last`: levels such as funding or open
   * interest) or the sums of its points (`sum`: liquidations).
   */
  buckets(
    symbol: string,
    metric: DerivativesMetric,
    intervalMs: number,
    fromMs: number,
    toMs: number,
    limit: number,
    mode: 'last' | 'sum',
  ): Promise<Bucket[]>;
  /** Time of the oldest and newest stored point, undefined when none. */
  extent(symbol: string, metric: DerivativesMetric): Promise<{ first: number; last: number } | undefined>;
}

export function createMemoryDerivativesRepository(): DerivativesRepository & { size(): number } {
  const series = new Map<string, Map<number, SeriesPoint>>();
  const sorted = (symbol: string, metric: string) =>
    [...(series.get(`${symbol}|${metric}`)?.values() ?? [])].sort((a, b) => a.time - b.time);
  return {
    async upsert(rows, term) {
      refuseLostTerm(term);
      for (const { symbol, metric, ...point } of rows) {
        const key = `${symbol}|${metric}`;
        const m = series.get(key) ?? new Map<number, SeriesPoint>();
        series.set(key, m);
        m.set(point.time, point);
      }
    },
    async range(symbol, metric, fromMs, toMs, limit) {
      return sorted(symbol, metric)
        .filter((p) => p.time >= fromMs && p.time < toMs)
        .slice(0, limit);
    },
    async buckets(symbol, metric, intervalMs, fromMs, toMs, limit, mode) {
      const out: Bucket[] = [];
      for (const p of sorted(symbol, metric)) {
        if (p.time < fromMs || p.time >= toMs) continue;
        const start = p.time - (p.time % intervalMs);
        const last = out.at(-1);
        if (last?.start !== start) {
          if (out.length === limit) break;
          out.push({ start, ...p });
        } else if (mode === 'last') Object.assign(last, p);
        else {
          last.time = p.time;
          last.value = (last.value ?? 0) + (p.value ?? 0);
          last.value2 = (last.value2 ?? 0) + (p.value2 ?? 0);
        }
      }
      return out;
    },
    async extent(symbol, metric) {
      const all = sorted(symbol, metric);
      return all.length ? { first: all[0]!.time, last: all.at(-1)!.time } : undefined;
    },
    size: () => [...series.values()].reduce((n, m) => n + m.size, 0),
  };
}
