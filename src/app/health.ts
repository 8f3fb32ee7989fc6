import type { DerivativesView } from '../modules/derivatives/index.ts';
import type { HistoryProgress } from '../modules/market/index.ts';
import type { ComponentHealth } from '../shared/readiness.ts';

/**
 * The per-component part of /readyz that is about data rather than connections (docs/operations.md#readiness):
 * the market feed (every venue of every symbol), the chain indexer and the model.
 */

interface VenueState {
  venue: string;
  stale: boolean;
  updatedAt: number | null;
}

/** Market: degraded while any venue of any symbol is stale (its answers say so too), with who and since when. */
export function marketHealth(
  symbols: readonly string[],
  snapshotOf: (
    symbol: string,
  ) =>
    | { mid: number | null; venues: Array<VenueState & { outlier?: boolean }>; updatedAt: number }
    | undefined,
  now: number,
): ComponentHealth | undefined {
  const staleVenues = new Map<string, string[]>();
  const noPrice: string[] = [];
  let oldest = 0;
  let seen = 0;
  let outliers = 0;
  for (const symbol of symbols) {
    const s = snapshotOf(symbol);
    if (!s) continue;
    seen++;
    if (s.mid === null) noPrice.push(symbol);
    oldest = Math.max(oldest, now - s.updatedAt);
    for (const v of s.venues) {
      if (v.outlier) outliers++;
      if (!v.stale) continue;
      const list = staleVenues.get(v.venue) ?? [];
      list.push(symbol);
      staleVenues.set(v.venue, list);
    }
  }
  // A market that has not started (nothing aggregated yet) has nothing to report.
  if (seen === 0) return undefined;
  const details = {
    snapshotAgeSeconds: Math.round(oldest / 1000),
    staleVenues: staleVenues.size,
    outlierVenues: outliers,
  };
  if (staleVenues.size === 0 && noPrice.length === 0) return { status: 'ok', details };
  const parts = [...staleVenues].map(([venue, list]) => `${venue} stale (${list.join(', ')})`);
  if (noPrice.length) parts.push(`no price for ${noPrice.join(', ')}`);
  return { status: 'degraded', reason: parts.join('; '), details };
}

/**
 * Market history: degraded (an expected phase of every start) while working windows load or the backfill of a
 * fetching source runs, with the progress; degraded for real when a symbol was given up on after failures.
 */
export function historyHealth(progress: HistoryProgress | undefined): ComponentHealth | undefined {
  if (!progress) return undefined;
  const details = {
    symbols: progress.symbols,
    windowsReady: progress.windowsReady,
    backfillDaysDone: progress.backfillDaysDone,
    backfillDaysPending: progress.backfillDaysTotal - progress.backfillDaysDone,
  };
  if (progress.complete) return { status: 'ok', details };
  if (progress.failed.length)
    return {
      status: 'degraded',
      reason: `history incomplete after repeated failures for ${progress.failed.join(', ')} (answers say so; retried at the next start)`,
      details,
    };
  const reason =
    progress.windowsReady < progress.symbols
      ? `filling history: working windows of ${progress.windowsReady} of ${progress.symbols} symbols loaded`
      : `backfilling history: ${progress.backfillDaysDone} of ${progress.backfillDaysTotal} symbol-days`;
  return { status: 'degraded', reason, expected: true, details };
}

/**
 * Chain indexer: degraded while its node fails, with the lag in blocks behind the head and in seconds (the
 * age of the newest indexed block on the data's clock; confirmations the indexer waits for are part of it).
 */
export function indexerHealth(
  status: {
    running: boolean;
    head: number | null;
    checkpoint: number | null;
    checkpointTime: number | null;
    consecutiveErrors: number;
    lastError: string | null;
  },
  now: number,
): ComponentHealth | undefined {
  if (!status.running) return undefined;
  const lag = status.head !== null && status.checkpoint !== null ? status.head - status.checkpoint : null;
  const lagSeconds =
    status.checkpointTime === null ? null : Math.max(0, Math.round((now - status.checkpointTime) / 1000));
  const details = { head: status.head, checkpoint: status.checkpoint, lagBlocks: lag, lagSeconds };
  if (status.consecutiveErrors > 0)
    return {
      status: 'degraded',
      reason: `chain node failing (${status.consecutiveErrors} errors in a row): ${status.lastError ?? 'unknown'}`,
      details,
    };
  return { status: 'ok', details };
}

/**
 * Model: how old the newest refresh is. Where the refresh job runs that is this process's own work; on an
 * API replica it is what the workers publish, so a refresh that stops coming means no worker is running.
 */
export function modelHealth(
  status: {
    phase: 'idle' | 'starting' | 'warming' | 'running' | 'following';
    /** While warming: symbols warmed up (forecast) and in all. */
    warmSymbols?: number;
    symbols?: number;
    lastRefresh: number | null;
    lastRefreshDurationMs?: number | null;
    scoredRecords?: number;
    /** Symbol × horizon pairs forecast here whose model has not made its first fit (nothing published yet). */
    unfitted?: number;
  },
  refreshMs: number,
  now: number,
): ComponentHealth | undefined {
  if (status.phase === 'idle') return undefined;
  if (status.phase === 'starting')
    return { status: 'degraded', reason: 'loading the stored forecast record', expected: true };
  if (status.phase === 'warming')
    return {
      status: 'degraded',
      reason: `warming up: ${status.warmSymbols ?? 0} of ${status.symbols ?? 0} symbols forecast (each once its history is loaded)`,
      expected: true,
      details: {
        warmSymbols: status.warmSymbols ?? 0,
        symbols: status.symbols ?? 0,
        ...(status.unfitted && { horizonsWarmingUp: status.unfitted }),
      },
    };
  const age = status.lastRefresh === null ? null : now - status.lastRefresh;
  const details = {
    lastRefreshAgeSeconds: age === null ? null : Math.round(age / 1000),
    // Where the refresh runs here: how long the last one took and how many scored forecasts it keeps.
    ...(status.lastRefreshDurationMs != null && { lastRefreshDurationMs: status.lastRefreshDurationMs }),
    ...(status.scoredRecords !== undefined && { scoredRecords: status.scoredRecords }),
    // Pairs whose forecasts are absent until the first fit: expected after a start, not a fault.
    ...(status.unfitted && { horizonsWarmingUp: status.unfitted }),
  };
  if (age !== null && age <= 2.5 * refreshMs) return { status: 'ok', details };
  const since = age === null ? 'no refresh yet' : `last refresh ${Math.round(age / 1000)} s ago`;
  return {
    status: 'degraded',
    reason:
      status.phase === 'following'
        ? `${since}: is a worker (--role worker) running? Forecasts are served stale`
        : `${since}: the model refresh is failing or late`,
    details,
  };
}

/**
 * Derivatives: degraded while any venue of any symbol has no reading newer than `staleMs` — judged on the
 * reading's own time, so a follower whose leader stopped refreshing reports it too — naming the venues and
 * saying when no venue at all is fresh (the source is dead). Nothing to report before the first refresh.
 */
export function derivativesHealth(
  views: readonly DerivativesView[],
  now: number,
  staleMs: number,
): ComponentHealth | undefined {
  const staleVenues = new Map<string, string[]>();
  let newest = Number.NEGATIVE_INFINITY;
  let venues = 0;
  for (const view of views)
    for (const v of view.venues) {
      venues++;
      const at = Date.parse(v.updatedAt);
      newest = Math.max(newest, at);
      if (!v.stale && now - at <= staleMs) continue;
      const list = staleVenues.get(v.venue) ?? [];
      list.push(view.symbol);
      staleVenues.set(v.venue, list);
    }
  if (venues === 0) return undefined;
  const details = {
    updateAgeSeconds: Math.max(0, Math.round((now - newest) / 1000)),
    staleVenues: staleVenues.size,
  };
  if (staleVenues.size === 0) return { status: 'ok', details };
  const stale = [...staleVenues].map(([venue, list]) => `${venue} stale (${list.join(', ')})`).join('; ');
  const dead = [...staleVenues.values()].reduce((n, list) => n + list.length, 0) === venues;
  return {
    status: 'degraded',
    reason: dead ? `no fresh derivatives venue for ${details.updateAgeSeconds} s: ${stale}` : stale,
    details,
  };
}

/** Seconds since each derivatives venue's last reading per symbol (the `meridian_derivatives_feed_age_seconds`). */
export const derivativesFeedAges = (views: readonly DerivativesView[], now: number) =>
  views.flatMap((view) =>
    view.venues.map((v) => ({
      venue: v.venue,
      symbol: view.symbol,
      ageSeconds: Math.max(0, Math.round((now - Date.parse(v.updatedAt)) / 1000)),
    })),
  );
