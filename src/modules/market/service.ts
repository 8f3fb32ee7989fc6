import type { FundingPoint } from './candle-files.ts';
import { type Clock, onClock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { logAndIgnore } from '../../shared/log-and-ignore.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
import { MERGED, MarketEngine } from './engine.ts';
import type { MarketSnapshotMessage } from './follower.ts';
import { type Freshness, createFollowerState } from './follower-state.ts';
import { floorTo } from './candles.ts';
import { createComputedHistory } from './computed-history.ts';
import { MEMORY_DAYS, candlesBetween, historyStart } from './history.ts';
import { type HistoryProgress, createHistoryFill } from './history-fill.ts';
import { type MarketDataItem, presentSnapshot } from './present.ts';
import type { CandleRepository } from './repository.ts';
import { type SnapshotPublication, createMarketDataBodies, createSnapshotTicker } from './snapshots.ts';
import type { MarketSource } from './ports.ts';
import type { CandleClosed, MarketService } from './types.ts';
import { createUsdPrice } from './usd-price.ts';
import { createWriteQueue } from './write-queue.ts';

export type { Freshness } from './follower-state.ts';
export type { SnapshotPublication } from './snapshots.ts';

export interface MarketServiceOptions {
  source: MarketSource;
  repository: CandleRepository;
  clock: Clock;
  symbols: readonly string[];
  staleMs?: number;
  outlierBps?: number;
  notional?: number;
  /** Snapshot recomputation and serialization period (ms). */
  snapshotMs?: number;
  /**
   * Days of history offered: backfilled into storage after start (a fetching source), or computed on read (a
   * source with `historyOnRead`). Memory holds only the working window, whatever this is.
   */
  historyDays?: number;
  graceMs?: number;
  /**
   * Called with merged closed candles and snapshot ticks, e.g. to publish on the bus. A snapshot's
   * `follower()` is computed only when called (the publisher throttles).
   */
  onPublish?: (...args: ['candle', CandleClosed] | ['snapshot', SnapshotPublication]) => void;
  log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

/** The running market: the public `MarketService` plus lifecycle and the pre-serialized API bytes. */
export interface MarketRuntime extends MarketService {
  engine: MarketEngine;
  /**
   * Starts the source and the snapshot timer, then fills history in the background (`historyProgress`).
   * Candle writes carry `term` (the market job's leadership term) and are refused once it is no longer current.
   */
  start(term?: LeaderTerm): Promise<void>;
  /** Resolves once every symbol's working window has been loaded after `start` (tests, benchmarks). */
  windowsLoaded(): Promise<void>;
  /** Whether a symbol's working window is loaded here (true where the feed does not run: nothing to wait for). */
  windowReady(symbol: string): boolean;
  /** The background history work: windows loaded, backfill days done; undefined where the feed does not run. */
  historyProgress(): HistoryProgress | undefined;
  /**
   * Whether a symbol's history is still being filled here (its answers say so), and where offered history
   * starts now.
   */
  historyState(symbol: string): { filling: boolean; from: number };
  stop(): Promise<void>;
  /** Runs one aggregation step now (tests, replays). */
  tickNow(): void;
  /** The GET /api/market-data body for all symbols and the default notional, serialized once per update. */
  marketDataBytes(): Buffer;
  /** The body for a subset of symbols (joined pre-serialized fragments) and/or another notional. */
  marketDataBody(symbols: readonly string[], notional?: number): string;
  defaultNotional: number;
  /** The market's time: wall time, or the replay's recorded time. */
  now(): number;
  /** The staleness window on the market's clock (MERIDIAN_MARKET_STALE_MS, times a replay's speed). */
  staleMs: number;
  /**
   * One symbol's freshness as the answers show it: the snapshot's time and each venue's. On a follower it
   * comes from the adopted body, and a copy older than the staleness window marks every venue stale (a
   * stopped worker shows as stale data, never as a frozen fresh one).
   */
  freshness(symbol: string): Freshness | undefined;
  /**
   * The newest update any venue gave, on the market's clock — the `Meridian-As-Of` of market answers. Computed
   * once per aggregation tick (on a follower, once per adopted copy), so answers only read it.
   */
  asOf(): number | null;
  /** Settled funding rates in [fromMs, toMs) from the source (none when it has no perpetual feed). */
  fundingHistory(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
  /** Rows waiting to be written; the write loop drains them. */
  pendingWrites(): number;
  /** Writes everything pending (tests, shutdown). */
  flush(): Promise<void>;
  /**
   * Follower mode (API replicas that do not run the market job): adopts a market-data body published by
   * the process that does, and with it the published books (slippage for other notionals) and bars in
   * progress (`FollowerWire`) and the worker's market time `at`. Ignored while this process runs its own
   * feed.
   */
  adoptMarketData(
    body: string,
    wire?: Pick<MarketSnapshotMessage, 'at' | 'books' | 'open' | 'partition'>,
  ): void;
  /** Whether this process runs the feed (start() was called and stop() was not). */
  running(): boolean;
  /** Feed counters, for metrics and tests. */
  status(): { events: number; gaps: number };
}

/**
 * The market service. It puts the parts together: the engine (engine.ts), the candle write queue and its
 * loop (write-queue.ts), the history loaded at start and ranges read back (history.ts), the serialized
 * market-data bodies and the snapshot tick that publishes them (snapshots.ts), follower mode
 * (follower-state.ts) and USD prices (usd-price.ts).
 */
export function createMarketService(options: MarketServiceOptions): MarketRuntime {
  const { source, repository } = options;
  const clock = source.clock ?? options.clock;
  const symbols = [...options.symbols];
  const notional = options.notional ?? 100_000;
  const historyDays = options.historyDays ?? 30;
  const snapshotMs = options.snapshotMs ?? 250;
  const staleMs = onClock(clock, options.staleMs ?? 15_000);
  const engine = new MarketEngine({
    symbols,
    venues: source.venues,
    staleMs,
    outlierBps: options.outlierBps ?? 100,
    notional,
    graceMs: options.graceMs ?? 2_000,
    memoryDays: MEMORY_DAYS,
    onGap: (venue, symbol) => source.resync?.(venue, symbol),
  });
  let term: LeaderTerm | undefined;
  const writes = createWriteQueue({ repository, term: () => term, log: options.log });
  const closedHandlers: Array<(e: CandleClosed) => void> = [];
  const bodies = createMarketDataBodies(symbols);
  const ticker = createSnapshotTicker({
    engine,
    clock,
    symbols,
    bodies,
    onPublish: options.onPublish,
    log: options.log,
  });
  let started = false;
  let stopped = false;
  const computed = source.historyOnRead ? createComputedHistory(source) : undefined;
  let fill: ReturnType<typeof createHistoryFill> | undefined;
  let filling: Promise<void> | undefined;

  engine.onCandleClosed((e) => {
    writes.enqueue([{ ...e.candle, symbol: e.symbol, venue: e.venue, interval: e.interval }]);
    for (const h of closedHandlers) {
      try {
        h(e);
      } catch (error) {
        options.log?.warn({ err: error }, 'candle-closed handler failed');
      }
    }
    if (e.venue === MERGED) options.onPublish?.('candle', e);
  });

  const tickNow = () => ticker.tick();
  const snapshots = periodicJob({
    name: 'market-snapshots',
    everyMs: snapshotMs,
    run: tickNow,
    log: writes.warnLog,
  });
  const running = () => started && !stopped;
  const follower = createFollowerState({
    symbols,
    clock,
    now: () => now(),
    staleMs,
    bodies,
    log: options.log,
  });
  // A follower keeps the worker's time: its `at` minus this process's clock when adopted (a replay's
  // clock starts with each process; for wall-clock sources this is the bus latency and host skew).
  const now = () => clock.now() + (running() ? 0 : follower.clockOffset());
  // A bar older than memory: stored, or computed where the source computes history and storage has none then.
  const barAt = async (symbol: string, atMs: number) => {
    const stored = await repository.at(symbol, MERGED, '1m', atMs);
    const minute = floorTo(atMs, 60_000);
    if (
      !computed ||
      stored?.openTime === minute ||
      minute < historyStart(now(), historyDays, source.historySince)
    )
      return stored;
    const until = Math.min(minute + 60_000, floorTo(now(), 60_000));
    for await (const c of computed.range(symbol, MERGED, '1m', minute, until)) return c;
    return stored;
  };
  const { usdPrice, usdPriceNow } = createUsdPrice({ symbols, engine, barAt, now });

  const runtime: MarketRuntime = {
    engine,
    defaultNotional: notional,
    now,
    staleMs,
    fundingHistory: async (symbol, fromMs, toMs) =>
      (await source.fundingHistory?.(symbol, fromMs, toMs)) ?? [],
    asOf: () => (running() ? ticker.asOf() : follower.asOf()),
    freshness(symbol) {
      if (running()) {
        const s = engine.snapshot(symbol);
        return s && { mid: s.mid, updatedAt: s.updatedAt, venues: s.venues };
      }
      return follower.freshness(symbol);
    },
    symbols: () => [...symbols],
    venues: () => [...source.venues],
    snapshot: (symbol) => engine.snapshot(symbol),
    recentCandles: (symbol, interval, count, after) => engine.recentCandles(symbol, interval, count, after),
    openCandle: (symbol, interval) =>
      running() ? engine.openCandle(symbol, interval) : follower.openCandle(symbol, interval),
    candlesBetween: (query) =>
      candlesBetween(query, {
        engine,
        repository,
        openCandle: runtime.openCandle,
        computed,
        historyFrom: historyStart(now(), historyDays, source.historySince),
        now: now(),
      }),
    windowsLoaded: () => fill?.windowsLoaded() ?? Promise.resolve(),
    windowReady: (symbol) => fill?.windowReady(symbol) ?? true,
    historyProgress: () => (running() ? fill?.progress() : undefined),
    historyState: (symbol) => ({
      filling: fill?.filling(symbol) ?? false,
      from: historyStart(now(), historyDays, source.historySince),
    }),
    onCandleClosed(handler) {
      closedHandlers.push(handler);
      return () => {
        const i = closedHandlers.indexOf(handler);
        if (i >= 0) closedHandlers.splice(i, 1);
      };
    },
    onSnapshot: ticker.onSnapshot,
    usdPriceNow,
    usdPrice,
    tickNow,
    marketDataBytes() {
      if (running() || !follower.stale()) return bodies.all();
      return follower.agedBytes();
    },
    marketDataBody(list, n) {
      if (n === undefined || n === notional) {
        if (running() || !follower.stale()) return bodies.bodyOf(list);
        return follower.agedBody(list);
      }
      // Follower: the adopted items with slippage re-walked on the published book (same function).
      if (!running()) return follower.bodyForNotional(list, n);
      const items: MarketDataItem[] = [];
      for (const symbol of list) {
        const s = engine.snapshot(symbol);
        if (s) items.push(presentSnapshot(s, engine.slippageFor(symbol, n)));
      }
      return JSON.stringify({ data: items });
    },
    running,
    adoptMarketData(body, wire) {
      if (running()) return;
      follower.adopt(body, wire);
    },
    pendingWrites: writes.pending,
    flush: writes.flush,
    status: () => ({ events: engine.stats.events, gaps: engine.stats.gaps }),
    async start(leaderTerm) {
      term = leaderTerm;
      stopped = false;
      await source.start((event) => engine.ingest(event));
      started = true;
      tickNow();
      snapshots.start();
      writes.startLoop(() => stopped);
      // History fills in the background: the feed and the API serve meanwhile, and say what is still filling.
      const run = createHistoryFill({
        clock,
        source,
        computed,
        repository,
        engine,
        enqueue: writes.enqueue,
        symbols,
        historyDays,
        writes,
        stopped: () => stopped || fill !== run,
        log: options.log,
      });
      fill = run;
      filling = run.run().catch(logAndIgnore(writes.warnLog, 'market history fill failed'));
    },
    async stop() {
      stopped = true;
      await snapshots.stop();
      writes.stopLoop();
      await source.stop();
      // The fill stops at its next step; a source request in flight is not waited for past a few seconds.
      await Promise.race([filling, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await writes.flush().catch(logAndIgnore(writes.warnLog, 'market candle write at stop failed'));
    },
  };
  return runtime;
}
