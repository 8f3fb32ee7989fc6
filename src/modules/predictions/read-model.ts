import type { HorizonForecast } from './models/engine.ts';
import type { ReferenceQuantiles } from './references/live.ts';
import type { PredictionGap, PredictionRow } from './repository.ts';
import { ScoredColumns } from './scoring/scored-columns.ts';
import { GRANULARITIES, HORIZONS, type Horizon, INTERVAL_MS, MAX_LIMIT } from '../identifiers/index.ts';

export interface PredictionsQuery {
  symbol: string;
  horizon: Horizon;
  granularityMs: number;
  limit: number;
  quantiles?: boolean;
  outcome?: boolean;
  modelVersion?: boolean;
  /** Adds `backfilled` (made after the fact over stored candles, not live) to each datapoint. */
  backfilled?: boolean;
}

/**
 * A row kept in memory, with the forecast it came from while this process still has it (for learning) and
 * the fitted references' quantiles at its time (for scoring them on its outcome).
 */
export interface Live {
  row: PredictionRow;
  forecast?: HorizonForecast;
  references?: ReferenceQuantiles;
}

const MINUTE = 60_000;
/** The span of the live track record. */
export const TRACK_RECORD_MS = 30 * 24 * 60 * MINUTE;

const keyOf = (s: string, h: string) => `${s}|${h}`;

/** Newest datapoint in each granularity bucket, newest `limit` buckets, oldest first. */
export function newestPerBucket(
  list: readonly PredictionRow[],
  q: Pick<PredictionsQuery, 'granularityMs' | 'limit'>,
): PredictionRow[] {
  const out: PredictionRow[] = [];
  let bucket = Number.NaN;
  for (let k = list.length - 1; k >= 0 && out.length < q.limit; k--) {
    const r = list[k]!;
    const b = Math.floor(r.generated_at / q.granularityMs);
    if (b === bucket) continue;
    bucket = b;
    out.push(r);
  }
  return out.reverse();
}

/** Milliseconds of each page granularity, each a multiple of the one before (their buckets nest). */
const GRANULARITY_MS = GRANULARITIES.map((g) => INTERVAL_MS[g]);

/**
 * Keeps, of a list oldest first, only the rows a page can show: the newest row of each of the newest `limit`
 * non-empty buckets at each granularity, generated at or after `cutoff`. Because the buckets nest, a page of
 * any granularity and `limit` from the kept rows equals the page from the whole list.
 */
export function keepPageRows<T>(
  list: T[],
  timeOf: (item: T) => number,
  cutoff: number,
  limit = MAX_LIMIT,
  granularitiesMs: readonly number[] = GRANULARITY_MS,
): void {
  const lastBucket = granularitiesMs.map(() => Number.NaN);
  const counts = granularitiesMs.map(() => 0);
  const keep = new Uint8Array(list.length);
  for (let k = list.length - 1; k >= 0; k--) {
    const t = timeOf(list[k]!);
    if (t < cutoff) break;
    for (let g = 0; g < granularitiesMs.length; g++) {
      const bucket = Math.floor(t / granularitiesMs[g]!);
      if (bucket === lastBucket[g]) continue;
      lastBucket[g] = bucket;
      if (counts[g]! < limit) {
        counts[g]!++;
        keep[k] = 1;
      }
    }
  }
  let w = 0;
  for (let k = 0; k < list.length; k++) if (keep[k]) list[w++] = list[k]!;
  list.length = w;
}

/**
 * What readers are served from, in memory: per symbol|horizon the rows a page can show (see `keepPageRows`:
 * at most 5 × 96 of them, not every minute of 96 h), the rows still to be scored, the scored datapoints of
 * the track record (last 30 days, as columns), the newest refresh's rows, when it happened, when datapoints
 * were last stored, and the recorded gaps.
 */
/** The entry of a list (oldest first) generated at `t`, searched from the newest end. */
function findFromEnd(list: readonly Live[], t: number): Live | undefined {
  for (let k = list.length - 1; k >= 0; k--) {
    const at = list[k]!.row.generated_at;
    if (at === t) return list[k];
    if (at < t) return undefined;
  }
  return undefined;
}

export function createReadModel(deps: {
  /** How long rows stay in `recent` after they were generated. */
  keepMs: number;
  now: () => number;
}) {
  const { keepMs } = deps;
  /** Page rows per `${symbol}|${horizon}`, oldest first; pruned once `slack` rows have come since the last prune. */
  const recent = new Map<string, { list: Live[]; kept: number }>();
  const slack = MAX_LIMIT;
  const unscored: Live[] = [];
  /** Scored datapoints per key for the track record (last 30 days), appended as they are scored. */
  const allScored = new Map<string, ScoredColumns>();

  function remember(row: PredictionRow, forecast?: HorizonForecast, references?: ReferenceQuantiles): Live {
    const live: Live = { row, forecast, references };
    const key = keyOf(row.symbol, row.horizon);
    let entry = recent.get(key);
    if (!entry) {
      entry = { list: [], kept: 0 };
      recent.set(key, entry);
    }
    const { list } = entry;
    list.push(live);
    const cutoff = row.generated_at - keepMs;
    if (list.length >= entry.kept + slack) {
      keepPageRows(list, (l) => l.row.generated_at, cutoff);
      entry.kept = list.length;
    } else if (list[0]!.row.generated_at < cutoff) {
      let drop = 1;
      while (list[drop]!.row.generated_at < cutoff) drop++;
      list.splice(0, drop);
      entry.kept -= Math.min(entry.kept, drop);
    }
    return live;
  }

  function scoredOf(key: string): ScoredColumns {
    let columns = allScored.get(key);
    if (!columns) {
      columns = new ScoredColumns();
      allScored.set(key, columns);
    }
    return columns;
  }

  /** Adds scored rows to the track record, oldest first (`onlyNewer`: not those older than its newest). */
  function trackScored(rows: readonly PredictionRow[], onlyNewer = false): void {
    const cutoff = deps.now() - TRACK_RECORD_MS;
    for (const r of [...rows].sort((a, b) => a.generated_at - b.generated_at)) {
      if (r.scored_at === null || r.realized === null || r.backfilled) continue;
      const columns = scoredOf(keyOf(r.symbol, r.horizon));
      if (onlyNewer && r.generated_at <= columns.newest) continue;
      columns.append(r);
      columns.dropBefore(cutoff);
    }
  }

  const listOf = (symbol: string, horizon: string): Live[] => recent.get(keyOf(symbol, horizon))?.list ?? [];

  return {
    unscored,
    allScored,
    /** The newest refresh's rows. */
    latest: [] as PredictionRow[],
    /** When the newest refresh happened (0: none yet). */
    lastRefresh: 0,
    /** When a refresh's datapoints were last stored: the start of a gap if the next one comes late. */
    lastStored: 0,
    gaps: [] as PredictionGap[],
    remember,
    trackScored,
    /** The page of a query from memory. */
    select(q: PredictionsQuery): PredictionRow[] {
      return newestPerBucket(
        listOf(q.symbol, q.horizon).map((l) => l.row),
        q,
      );
    },
    /** The newest row in memory of one symbol × horizon (undefined before its first forecast). */
    newest(symbol: string, horizon: Horizon): PredictionRow | undefined {
      return listOf(symbol, horizon).at(-1)?.row;
    },
    /** When the newest row in memory (of one symbol, when given) was generated (0 when there is none). */
    newestGenerated(symbol?: string): number {
      let newest = 0;
      // One symbol's lists only: the warm-up asks once per symbol, and reading every symbol's rows each time
      // made it grow with the square of the universe.
      const lists =
        symbol === undefined
          ? [...recent.values()].map((e) => e.list)
          : HORIZONS.map((h) => listOf(symbol, h));
      for (const list of lists) for (const l of list) newest = Math.max(newest, l.row.generated_at);
      return newest;
    },
    /** Forgets every row (a full load follows, in chunks through `add`). */
    clear(): void {
      recent.clear();
      allScored.clear();
      unscored.length = 0;
    },
    /** Adds a chunk of a full load: `rows` oldest first (and newer than any added before), read at `now`. */
    add(rows: readonly PredictionRow[], now: number): void {
      for (const r of rows) {
        if (r.generated_at >= now - keepMs) remember(r);
        if (r.scored_at === null) unscored.push({ row: r });
      }
      trackScored(rows);
    },
    /**
     * Merges what changed after a load (`rows` oldest first, possibly again some merged before): a new
     * datapoint joins the pages; a scored one takes its outcome in place and joins the track record once.
     * A row older than its list's newest that the list no longer holds stays out of the pages (pruned, or
     * past `keepMs`).
     */
    merge(rows: readonly PredictionRow[]): void {
      const scored: PredictionRow[] = [];
      for (const r of rows) {
        const list = listOf(r.symbol, r.horizon);
        const known = findFromEnd(list, r.generated_at);
        if (known) {
          if (known.row.scored_at === null && r.scored_at !== null) scored.push(Object.assign(known.row, r));
          continue;
        }
        if (r.generated_at > (list.at(-1)?.row.generated_at ?? Number.NEGATIVE_INFINITY)) remember(r);
        if (r.scored_at !== null) scored.push(r);
      }
      trackScored(scored, true);
    },
    scoredRecords(): number {
      let n = 0;
      for (const columns of allScored.values()) n += columns.length;
      return n;
    },
    /** Rows held for pages (tests and the memory bound). */
    pageRows(symbol: string, horizon: Horizon): number {
      return listOf(symbol, horizon).length;
    },
  };
}

export type ReadModel = ReturnType<typeof createReadModel>;
