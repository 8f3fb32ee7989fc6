import type { HorizonForecast } from './models/engine.ts';
import type { ReferenceQuantiles } from './references/live.ts';
import type { PredictionGap, PredictionRow } from './repository.ts';
import { HORIZONS, type Horizon } from '../identifiers/index.ts';

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

/**
 * What readers are served from, in memory: the recent rows per symbol|horizon (enough for a full page at 1 h
 * granularity), the rows still to be scored, the scored rows of the track record (last 30 days), the newest
 * refresh's rows, when it happened, when datapoints were last stored, and the recorded gaps.
 */
/**
 * Appends `item` to `key`'s list (oldest first) and drops the items at the front that `isRecent` rejects, in
 * one splice (a `shift` per dropped item would move the whole list each time).
 */
function appendKeepingRecent<T>(
  lists: Map<string, T[]>,
  key: string,
  item: T,
  isRecent: (item: T) => boolean,
): void {
  let list = lists.get(key);
  if (!list) {
    list = [];
    lists.set(key, list);
  }
  list.push(item);
  let drop = 0;
  while (drop < list.length && !isRecent(list[drop]!)) drop++;
  if (drop) list.splice(0, drop);
}

export function createReadModel(deps: {
  /** How long rows stay in `recent` after they were generated. */
  keepMs: number;
  now: () => number;
}) {
  const { keepMs } = deps;
  /** Recent rows per `${symbol}|${horizon}`, oldest first. */
  const recent = new Map<string, Live[]>();
  const unscored: Live[] = [];
  /** Scored rows per key for the track record (last 30 days), appended as they are scored. */
  const allScored = new Map<string, PredictionRow[]>();

  function remember(row: PredictionRow, forecast?: HorizonForecast, references?: ReferenceQuantiles): Live {
    const live: Live = { row, forecast, references };
    const cutoff = row.generated_at - keepMs;
    appendKeepingRecent(recent, keyOf(row.symbol, row.horizon), live, (l) => l.row.generated_at >= cutoff);
    return live;
  }

  function trackScored(rows: readonly PredictionRow[]): void {
    const cutoff = deps.now() - TRACK_RECORD_MS;
    for (const r of rows) {
      if (r.scored_at === null || r.backfilled) continue;
      appendKeepingRecent(allScored, keyOf(r.symbol, r.horizon), r, (x) => x.generated_at >= cutoff);
    }
  }

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
        (recent.get(keyOf(q.symbol, q.horizon)) ?? []).map((l) => l.row),
        q,
      );
    },
    /** The newest row in memory of one symbol × horizon (undefined before its first forecast). */
    newest(symbol: string, horizon: Horizon): PredictionRow | undefined {
      return recent.get(keyOf(symbol, horizon))?.at(-1)?.row;
    },
    /** When the newest row in memory (of one symbol, when given) was generated (0 when there is none). */
    newestGenerated(symbol?: string): number {
      let newest = 0;
      // One symbol's lists only: the warm-up asks once per symbol, and reading every symbol's rows each time
      // made it grow with the square of the universe.
      const lists =
        symbol === undefined ? [...recent.values()] : HORIZONS.map((h) => recent.get(keyOf(symbol, h)) ?? []);
      for (const list of lists) for (const l of list) newest = Math.max(newest, l.row.generated_at);
      return newest;
    },
    /** Replaces the rows from a load: `rows` oldest first, read from storage at `now`. */
    reload(rows: readonly PredictionRow[], now: number): void {
      recent.clear();
      allScored.clear();
      unscored.length = 0;
      for (const r of rows) {
        if (r.generated_at >= now - keepMs) remember(r);
        if (r.scored_at === null) unscored.push({ row: r });
      }
      trackScored(rows);
    },
    scoredRecords(): number {
      let n = 0;
      for (const list of allScored.values()) n += list.length;
      return n;
    },
  };
}

export type ReadModel = ReturnType<typeof createReadModel>;
