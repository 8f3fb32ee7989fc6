import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { WarnLog } from '../../shared/log-and-ignore.ts';
import { type PeriodicJob, periodicJob } from '../../shared/periodic-job.ts';
import { mergeReadings } from './merge.ts';
import type { DerivativesSource } from './ports.ts';
import { type DerivativesView, type LiquidationView, presentLiquidation, presentSummary } from './present.ts';
import type { Bucket, DerivativesRepository, StoredPoint } from './repository.ts';
import type { DerivativesUpdate } from './topics.ts';
import type { DerivativesHistoryState, DerivativesMetric, SeriesPoint, VenueReading } from './types.ts';
import { SymbolWindows, minuteOf } from './windows.ts';

const DAY = 86_400_000;
/** Symbols polled at once (each poll asks every venue). */
const POLL_CONCURRENCY = 4;

export interface DerivativesServiceOptions {
  source: DerivativesSource;
  repository: DerivativesRepository;
  /** The data's clock (a replay's recorded time). */
  clock: Clock;
  symbols: readonly string[];
  /** What answers name as the source (`Meridian-Source`). */
  sourceLabel: string;
  staleMs: number;
  outlierBps: number;
  refreshMs: number;
  /** Days of history backfilled from venues that offer it. */
  historyDays: number;
  log: WarnLog & { info(obj: object, msg: string): void };
  /** After each refresh (the job publishes it on the bus). */
  onPublish?(update: DerivativesUpdate): void;
}

export interface DerivativesHistoryQuery {
  symbol: string;
  metric: DerivativesMetric;
  intervalMs: number;
  fromMs: number;
  toMs: number;
  limit: number;
}

/**
 * The derivatives service: polls the source every `refreshMs` (leader only), merges each symbol's venues,
 * keeps the 24 h windows, stores the series (open interest and basis per minute, liquidations per minute,
 * funding at each settlement) and publishes every symbol's view. At start it backfills settled funding and
 * open-interest history from the first venue that offers it, in the background. A process that does not
 * run the job adopts what the leader publishes.
 */
export function createDerivativesService(options: DerivativesServiceOptions) {
  const { source, repository, clock, log } = options;
  const readings = new Map<string, Map<string, VenueReading>>();
  const windows = new Map<string, SymbolWindows>();
  const lastNextFunding = new Map<string, number>();
  const views = new Map<string, DerivativesView>();
  const filling = new Set<string>();
  let pending: StoredPoint[] = [];
  let asOf: number | null = null;
  let term: LeaderTerm | undefined;
  let job: PeriodicJob | undefined;
  let backfill: Promise<void> | undefined;
  let running = false;
  let update: DerivativesUpdate | undefined;

  const windowsOf = (symbol: string) => {
    const w = windows.get(symbol) ?? new SymbolWindows();
    windows.set(symbol, w);
    return w;
  };
  const liquidationsStreamed = source.liquidationVenues.length > 0;

  /**
   * Fills a metric's stored series from the newest stored point (or `historyDays` back) to now. Funding: the
   * settled rates of the first venue, in configured order, that has them. Open interest: the sum over the
   * venues that have history, at the times every one of them reports (as the live figure sums venues).
   * False when no venue has any.
   */
  async function catchUp(
    symbol: string,
    metric: 'funding' | 'open_interest',
    /** The newest stored point to resume after, when known already (`{}`: none stored). */
    resume?: { last?: number },
  ): Promise<boolean> {
    if (!source.history) return false;
    const now = clock.now();
    const last = resume ? resume.last : (await repository.extent(symbol, metric))?.last;
    const floor = now - options.historyDays * DAY;
    const from = last !== undefined && last >= floor ? last + 1 : floor;
    const series: SeriesPoint[][] = [];
    for (const venue of source.venues) {
      const points = await source.history(venue, symbol, metric, from, now + 1);
      if (points === undefined) continue;
      series.push(points);
      if (metric === 'funding') break;
    }
    if (series.length === 0) return false;
    const rows = (series.length === 1 ? series[0]! : sumAtCommonTimes(series)).map((p) => ({
      symbol,
      metric,
      ...p,
    }));
    if (rows.length) await repository.upsert(rows, term);
    // Backfilled open interest counts for the 24 h change as live samples do.
    if (metric === 'open_interest')
      for (const r of rows)
        if (r.value !== null && now - r.time <= DAY + 3_600_000)
          windowsOf(symbol).noteOpenInterest(r.time, r.value);
    return true;
  }

  /**
   * `resume`: per symbol and metric, the newest point stored before the live refresh began (the refresh stores
   * open interest too, which must not be taken for the end of the history).
   */
  async function backfillAll(resume: Map<string, number | undefined>): Promise<void> {
    log.info(
      { symbols: options.symbols.length, days: options.historyDays },
      'derivatives: backfilling history',
    );
    for (const symbol of options.symbols) {
      if (!running) return;
      for (const metric of ['funding', 'open_interest'] as const) {
        try {
          await catchUp(symbol, metric, { last: resume.get(`${symbol}|${metric}`) });
        } catch (error) {
          log.warn({ symbol, metric, err: (error as Error).message }, 'derivatives: backfill failed');
        }
      }
      filling.delete(symbol);
    }
    log.info({ symbols: options.symbols.length }, 'derivatives: history backfilled');
  }

  /** At start: the last day of open interest and liquidations, for the 24 h figures. */
  async function loadWindows(): Promise<void> {
    const now = clock.now();
    for (const symbol of options.symbols) {
      const w = windowsOf(symbol);
      for (const p of await repository.range(symbol, 'open_interest', now - DAY - 3_600_000, now, 2_000))
        if (p.value !== null) w.noteOpenInterest(p.time, p.value);
      for (const p of await repository.range(symbol, 'liquidations', now - DAY, now, 2_000))
        w.loadLiquidations(p.time, p.value ?? 0, p.value2 ?? 0);
    }
  }

  async function refreshSymbol(symbol: string, liquidations: LiquidationView[]): Promise<void> {
    const polled = await source.poll(symbol);
    const now = clock.now();
    const minute = minuteOf(now);
    const byVenue = readings.get(symbol) ?? new Map<string, VenueReading>();
    readings.set(symbol, byVenue);
    for (const r of polled.readings) byVenue.set(r.venue, r);
    const w = windowsOf(symbol);
    for (const l of polled.liquidations) {
      const b = w.noteLiquidation(l);
      pending.push({ symbol, metric: 'liquidations', time: b.minute, value: b.longUsd, value2: b.shortUsd });
      liquidations.push(presentLiquidation(l));
    }
    w.prune(now);
    const merged = mergeReadings(symbol, [...byVenue.values()], {
      now,
      staleMs: options.staleMs,
      outlierBps: options.outlierBps,
    });
    const oi = merged.openInterest;
    if (oi) {
      if (oi.usd !== null) w.noteOpenInterest(now, oi.usd);
      pending.push({ symbol, metric: 'open_interest', time: minute, value: oi.usd, value2: oi.contracts });
    }
    if (merged.basis)
      pending.push({ symbol, metric: 'basis', time: minute, value: merged.basis.bps, value2: null });
    // A settlement passed (the next funding time moved on): store the settled rate, from a venue's history
    // when one offers it (the exact published value), else the last merged rate seen before it.
    const next = merged.funding?.nextFundingTime ?? undefined;
    const previous = lastNextFunding.get(symbol);
    if (next !== undefined) {
      lastNextFunding.set(symbol, next);
      if (previous !== undefined && next > previous && previous <= now && !filling.has(symbol)) {
        const rate = views.get(symbol)?.funding?.rate;
        if (!(await catchUp(symbol, 'funding')) && rate !== undefined)
          pending.push({ symbol, metric: 'funding', time: previous, value: rate, value2: null });
      }
    }
    if (merged.asOf !== null && (asOf === null || merged.asOf > asOf)) asOf = merged.asOf;
    views.set(
      symbol,
      presentSummary(
        {
          ...merged,
          openInterest: oi && { ...oi, change24hPct: oi.usd === null ? null : w.change24hPct(now, oi.usd) },
          liquidations: liquidationsStreamed ? w.liquidationSums(now) : null,
        },
        source.liquidationVenues,
      ),
    );
  }

  async function refresh(): Promise<void> {
    const liquidations: LiquidationView[] = [];
    const queue = [...options.symbols];
    const worker = async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        try {
          await refreshSymbol(s, liquidations);
        } catch (error) {
          log.warn({ symbol: s, err: (error as Error).message }, 'derivatives: refresh failed');
        }
      }
    };
    await Promise.all(Array.from({ length: POLL_CONCURRENCY }, worker));
    const rows = pending;
    pending = [];
    if (rows.length) await repository.upsert(rows, term);
    update = {
      at: clock.now(),
      source: options.sourceLabel,
      simulated: source.simulated,
      items: options.symbols.flatMap((s) => views.get(s) ?? []),
      liquidations,
    };
    options.onPublish?.(update);
  }

  const staleNow = () => asOf === null || clock.now() - asOf > options.staleMs;

  return {
    source: options.sourceLabel,
    simulated: source.simulated,
    staleMs: options.staleMs,
    now: () => clock.now(),
    running: () => running,
    refresh,
    /** Starts polling (leader); backfill runs in the background. */
    async start(leaderTerm?: LeaderTerm): Promise<void> {
      term = leaderTerm;
      running = true;
      await source.start?.();
      await loadWindows();
      log.info(
        { source: options.sourceLabel, simulated: source.simulated, symbols: options.symbols.length },
        source.simulated ? 'derivatives: simulated data (not from a venue)' : 'derivatives: polling venues',
      );
      const resume = new Map<string, number | undefined>();
      for (const symbol of options.symbols) {
        filling.add(symbol);
        for (const metric of ['funding', 'open_interest'] as const)
          resume.set(`${symbol}|${metric}`, (await repository.extent(symbol, metric))?.last);
      }
      backfill = backfillAll(resume).catch((error) =>
        log.warn({ err: (error as Error).message }, 'derivatives: backfill stopped'),
      );
      job = periodicJob({ name: 'derivatives', everyMs: options.refreshMs, log, run: refresh });
      await job.runNow();
      job.start();
    },
    async stop(): Promise<void> {
      running = false;
      await job?.stop();
      await backfill;
      await source.stop?.();
    },
    /** Waits for the start's backfill (tests). */
    backfilled: () => backfill ?? Promise.resolve(),
    /** A follower adopts what the leader published. */
    adopt(message: DerivativesUpdate): void {
      if (running) return;
      update = message;
      for (const item of message.items) {
        views.set(item.symbol, item);
        const t = item.updatedAt === null ? null : Date.parse(item.updatedAt);
        if (t !== null && (asOf === null || t > asOf)) asOf = t;
      }
    },
    /** Each listed symbol's view (symbols without one yet are left out). */
    views: (symbols: readonly string[]): DerivativesView[] => symbols.flatMap((s) => views.get(s) ?? []),
    latestUpdate: () => update,
    asOf: () => asOf,
    stale: staleNow,
    history: (q: DerivativesHistoryQuery): Promise<Bucket[]> =>
      repository.buckets(
        q.symbol,
        q.metric,
        q.intervalMs,
        q.fromMs,
        q.toMs,
        q.limit,
        q.metric === 'liquidations' ? 'sum' : 'last',
      ),
    historyState(symbol: string): DerivativesHistoryState {
      const from = clock.now() - options.historyDays * DAY;
      return { filling: filling.has(symbol), from: from - (from % DAY) };
    },
  };
}

export type DerivativesService = ReturnType<typeof createDerivativesService>;

/** Point-wise sums of several venues' series, at the times all of them have. */
function sumAtCommonTimes(series: SeriesPoint[][]): SeriesPoint[] {
  const sums = new Map<number, { n: number; value: number; value2: number | null }>();
  for (const points of series)
    for (const p of points) {
      const s = sums.get(p.time) ?? { n: 0, value: 0, value2: 0 };
      s.n++;
      s.value += p.value ?? 0;
      s.value2 = s.value2 === null || p.value2 === null ? null : s.value2 + p.value2;
      sums.set(p.time, s);
    }
  return [...sums]
    .filter(([, s]) => s.n === series.length)
    .sort((a, b) => a[0] - b[0])
    .map(([time, s]) => ({ time, value: s.value, value2: s.value2 }));
}
