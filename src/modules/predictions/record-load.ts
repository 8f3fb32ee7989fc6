import type { Clock } from '../../shared/clock.ts';
import { HORIZONS } from '../identifiers/index.ts';
import { type ReadModel, TRACK_RECORD_MS } from './read-model.ts';
import type { PredictionRepository, PredictionRow } from './repository.ts';

const MINUTE = 60_000;
/** Every how long a following reader loads the whole record again, and how many periods its reloads look back. */
const FULL_RELOAD_MS = 60 * MINUTE;
const RELOAD_OVERLAP_PERIODS = 5;
/** Rows a full load reads per query. */
const LOAD_CHUNK_ROWS = 20_000;

/**
 * Fills the read model from storage: in full at a process start (and hourly, to heal anything a reload
 * missed), otherwise only what changed since the last load — an API replica reloads after every refresh
 * event, and reading 30 days of every symbol each minute would grow with uptime.
 */
export function createRecordLoader(deps: {
  repository: Pick<PredictionRepository, 'since' | 'oldest' | 'changedSince' | 'gaps'>;
  readModel: ReadModel;
  clock: Clock;
  refreshMs: number;
  /** How long rows stay in the pages (the read model's `keepMs`). */
  keepMs: number;
  symbolCount: () => number;
  severalPublishers?: boolean;
}) {
  const { repository, readModel, refreshMs } = deps;
  /** Where the last load left off, on the data's clock: a full load's time and the newest rows seen. */
  let loaded: { fullAt: number; generated: number; scored: number } | undefined;

  /**
   * The newest refresh's rows among `rows` (oldest first): each publisher's newest, and any of the last period;
   * rows of one instant by symbol and horizon (storage returns them in no set order).
   */
  function newestRefresh(unordered: readonly PredictionRow[], now: number): PredictionRow[] {
    const rows = [...unordered].sort(
      (a, b) =>
        a.generated_at - b.generated_at ||
        a.symbol.localeCompare(b.symbol) ||
        HORIZONS.indexOf(a.horizon) - HORIZONS.indexOf(b.horizon),
    );
    const newest = rows.length ? rows[rows.length - 1]!.generated_at : 0;
    if (!deps.severalPublishers)
      return rows.filter((r) => r.generated_at === newest || now - r.generated_at < refreshMs);
    const newestOf = new Map<string, number>();
    for (const r of rows) newestOf.set(r.symbol, r.generated_at); // oldest first: the last one wins
    return rows.filter((r) => r.generated_at === newestOf.get(r.symbol) || now - r.generated_at < refreshMs);
  }

  function noteLoaded(rows: readonly PredictionRow[]): void {
    for (const r of rows) {
      loaded!.generated = Math.max(loaded!.generated, r.generated_at);
      if (r.scored_at !== null) loaded!.scored = Math.max(loaded!.scored, r.scored_at);
    }
  }

  /**
   * The whole record since `since`, read a time span at a time (≈ LOAD_CHUNK_ROWS rows each) into the read
   * model, which keeps only what it needs: 30 days of every symbol at once would be millions of row objects.
   * Resolves to each symbol's newest rows (and those of the last period), for `latest`.
   */
  async function loadInChunks(since: number, now: number): Promise<PredictionRow[]> {
    readModel.clear();
    const perPeriod = HORIZONS.length * Math.max(1, deps.symbolCount());
    const spanMs = Math.max(1, Math.floor(LOAD_CHUNK_ROWS / perPeriod)) * Math.max(refreshMs, MINUTE);
    const newestOf = new Map<string, PredictionRow[]>();
    const lastPeriod: PredictionRow[] = [];
    // From the oldest stored row: an empty or young record is one query, not a month of empty spans.
    const first = await repository.oldest(since);
    for (let from = first ?? 0, last = first === undefined; !last; from += spanMs) {
      last = from + spanMs > now;
      const before = last ? undefined : from + spanMs;
      const rows = await repository.since(from, { before });
      readModel.add(rows, now);
      noteLoaded(rows);
      for (const r of rows) {
        if (now - r.generated_at < refreshMs) lastPeriod.push(r);
        const held = newestOf.get(r.symbol);
        if (held && held[0]!.generated_at === r.generated_at) held.push(r);
        else newestOf.set(r.symbol, [r]); // oldest first: a newer row replaces the symbol's
      }
    }
    return [...new Set([...[...newestOf.values()].flat(), ...lastPeriod])];
  }

  /** What changed since the last load, merged; resolves to the candidates for `latest`. */
  async function loadChanges(since: number, from: { generated: number; scored: number }) {
    // Another publisher's transaction may commit rows a little older than the newest seen: look back a few periods.
    const overlap = RELOAD_OVERLAP_PERIODS * refreshMs;
    const rows = await repository.changedSince({
      notBefore: since,
      generatedAfter: from.generated - overlap,
      scoredAfter: from.scored - overlap,
    });
    readModel.merge(rows);
    noteLoaded(rows);
    const byKey = new Map<string, PredictionRow>();
    for (const r of [...readModel.latest, ...rows])
      byKey.set(`${r.symbol}|${r.horizon}|${r.generated_at}`, r);
    return [...byKey.values()].sort((a, b) => a.generated_at - b.generated_at);
  }

  return {
    async load(): Promise<void> {
      const now = deps.clock.now();
      const since = now - Math.max(deps.keepMs, TRACK_RECORD_MS);
      let latest: PredictionRow[];
      if (!loaded || now - loaded.fullAt >= FULL_RELOAD_MS) {
        loaded = { fullAt: now, generated: 0, scored: 0 };
        latest = await loadInChunks(since, now);
      } else latest = await loadChanges(since, loaded);
      readModel.latest = newestRefresh(latest, now);
      const newest = readModel.latest.at(-1)?.generated_at ?? 0;
      readModel.lastRefresh = newest;
      readModel.lastStored = newest;
      readModel.gaps = await repository.gaps(now - TRACK_RECORD_MS);
    },
  };
}
