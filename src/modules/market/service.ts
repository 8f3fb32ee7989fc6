import type { FundingPoint } from './candle-files.ts';
import { type Clock, onClock } from '../../shared/clock.ts';
import { type LeaderTerm, StaleLeaderError } from '../../shared/leadership.ts';
import {
  isDollar,
  splitSymbol,
  underlyingAsset,
  INTERVALS,
  type Interval,
  INTERVAL_MS,
} from '../identifiers/index.ts';
import { type Candle, floorTo, mergeVenueCandles, resample } from './candles.ts';
import { ROLLUP_INTERVALS } from './candle-builder.ts';
import { MERGED, MarketEngine } from './engine.ts';
import {
  type FollowerBook,
  type FollowerWire,
  type MarketSnapshotMessage,
  decodeFollowerWire,
  encodeCandle,
  encodeFollowerBook,
  followerSlippage,
} from './follower.ts';
import { type MarketDataItem, presentSlippage, presentSnapshot } from './present.ts';
import type { CandleRepository, StoredCandle } from './repository.ts';
import type { MarketSource } from './source.ts';
import type { CandleClosed, CandleQuery, MarketService } from './types.ts';
import { logAndIgnore, type WarnLog } from '../../shared/log-and-ignore.ts';

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
  /** Days of 1m history generated/loaded on start and kept in memory. */
  historyDays?: number;
  graceMs?: number;
  /**
   * Called with merged closed candles and snapshot ticks, e.g. to publish on the bus. A snapshot's
   * `follower()` is computed only when called (the publisher throttles).
   */
  onPublish?: (...args: ['candle', CandleClosed] | ['snapshot', SnapshotPublication]) => void;
  log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

/** The `snapshot` payload handed to `onPublish` after each tick. */
export interface SnapshotPublication {
  symbols: string[];
  at: number;
  /** The serialized market-data body (all symbols, default notional). */
  body: Buffer;
  /** What followers need besides the body (books for other notionals, bars in progress), on demand. */
  follower: () => FollowerWire;
}

/** The running market: the public `MarketService` plus lifecycle and the pre-serialized API bytes. */
export interface Freshness {
  mid: number | null;
  updatedAt: number;
  venues: Array<{ venue: string; stale: boolean; outlier: boolean; updatedAt: number | null }>;
}

export interface MarketRuntime extends MarketService {
  engine: MarketEngine;
  /**
   * Loads/generates history, persists what is missing, starts the source and the snapshot timer. Candle
   * writes carry `term` (the market job's leadership term) and are refused once it is no longer current.
   */
  start(term?: LeaderTerm): Promise<void>;
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
  adoptMarketData(body: string, wire?: Pick<MarketSnapshotMessage, 'at' | 'books' | 'open'>): void;
  /** Whether this process runs the feed (start() was called and stop() was not). */
  running(): boolean;
  /** Start-up progress, for /readyz and logs. */
  status(): { historyReady: boolean; persistedHistory: boolean; events: number; gaps: number };
}

const DAY = 86_400_000;
/** The write queue's bound: beyond it the oldest rows are dropped (and counted) rather than growing memory. */
const MAX_PENDING_ROWS = 2_000_000;

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
    memoryDays: historyDays + 1,
    onGap: (venue, symbol) => source.resync?.(venue, symbol),
  });
  const pending: StoredCandle[] = [];
  let dropped = 0;
  const closedHandlers: Array<(e: CandleClosed) => void> = [];
  const snapshotHandlers: Array<(symbols: string[]) => void> = [];
  const fragments = new Map<string, string>();
  // Follower state: the adopted items (parsed), books and bars in progress.
  const adoptedItems = new Map<string, MarketDataItem>();
  let adoptedBooks = new Map<string, FollowerBook>();
  let adoptedOpen = new Map<string, Map<Interval, Candle>>();
  let clockOffset = 0;
  let allBytes = Buffer.from('{"data":[]}');
  // A follower's adopted body re-rendered with every venue stale, built once per adoption when it ages.
  let agedBytes: Buffer | undefined;
  let oldestAdopted = Number.POSITIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let writer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let historyReady = false;
  let persistedHistory = false;
  let stopped = false;

  const enqueue = (rows: StoredCandle[]) => {
    for (const r of rows) pending.push(r);
    if (pending.length > MAX_PENDING_ROWS) {
      const excess = pending.length - MAX_PENDING_ROWS;
      pending.splice(0, excess);
      dropped += excess;
      options.log?.warn({ dropped }, 'market candle write queue full: oldest rows dropped');
    }
  };

  engine.onCandleClosed((e) => {
    enqueue([{ ...e.candle, symbol: e.symbol, venue: e.venue, interval: e.interval }]);
    for (const h of closedHandlers) {
      try {
        h(e);
      } catch (error) {
        options.log?.warn({ err: error }, 'candle-closed handler failed');
      }
    }
    if (e.venue === MERGED) options.onPublish?.('candle', e);
  });

  const serialize = (changed: string[]) => {
    for (const symbol of changed) {
      const s = engine.snapshot(symbol);
      if (s) fragments.set(symbol, JSON.stringify(presentSnapshot(s)));
    }
    allBytes = Buffer.from(bodyOf(symbols));
  };
  const bodyOf = (list: readonly string[]) => {
    const parts: string[] = [];
    for (const s of list) {
      const f = fragments.get(s);
      if (f) parts.push(f);
    }
    return `{"data":[${parts.join(',')}]}`;
  };

  const tickNow = () => {
    const changed = engine.tick(clock.now());
    serialize(changed);
    for (const h of snapshotHandlers) {
      try {
        h(changed);
      } catch (error) {
        options.log?.warn({ err: error }, 'snapshot handler failed');
      }
    }
    const publication: SnapshotPublication = { symbols: changed, at: clock.now(), body: allBytes, follower };
    options.onPublish?.('snapshot', publication);
  };

  const follower = (): FollowerWire => {
    const wire: FollowerWire = { books: {}, open: {} };
    for (const symbol of symbols) {
      const c = engine.consolidatedBook(symbol);
      if (c) wire.books[symbol] = encodeFollowerBook(c.included, c.mid);
      const bars: FollowerWire['open'][string] = {};
      for (const interval of INTERVALS) {
        const bar = engine.openCandle(symbol, interval);
        if (bar) bars[interval] = encodeCandle(bar);
      }
      wire.open[symbol] = bars;
    }
    return wire;
  };
  const running = () => historyReady && !stopped;

  const warnLog: WarnLog = { warn: (fields, message) => options.log?.warn(fields, message) };
  let failures = 0;
  let term: LeaderTerm | undefined;
  async function writeLoop(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.splice(0, 2000);
      try {
        await repository.upsert(batch, term);
        failures = 0;
      } catch (error) {
        if (error instanceof StaleLeaderError) {
          // This process no longer leads: the current leader writes these candles itself.
          dropped += batch.length + pending.length;
          pending.length = 0;
          options.log?.warn({ err: error }, 'market candle writes refused: leadership moved on');
          return;
        }
        // Keep the rows and retry on the next round (storage may be briefly unavailable); a batch that
        // keeps failing (10 rounds, ~20 s) is dropped so it cannot block every later write.
        if (++failures >= 10) {
          failures = 0;
          dropped += batch.length;
          options.log?.warn(
            { err: error, rows: batch.length },
            'market candle batch dropped after repeated failures',
          );
          continue;
        }
        pending.unshift(...batch);
        options.log?.warn({ err: error }, 'market candle write failed; will retry');
        return;
      }
      // Yield to the event loop between batches so requests keep flowing during big history writes.
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  const flush = async () => {
    while (writing) await writing;
    writing = writeLoop().finally(() => {
      writing = undefined;
    });
    await writing;
  };

  async function loadHistory(): Promise<void> {
    const end = floorTo(clock.now(), 60_000);
    const historyFrom = end - historyDays * DAY;
    for (const symbol of symbols) {
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
      options.log?.info(
        { symbol, stored: stored.length, generated: generated.length, from: new Date(genFrom).toISOString() },
        'market history ready',
      );
    }
  }

  const resolveSymbol = (assetOrSymbol: string): string | 'stable' | undefined => {
    const text = assetOrSymbol.trim().toUpperCase();
    if (symbols.includes(text)) return text;
    const asset = underlyingAsset(text);
    if (isDollar(asset)) return 'stable';
    const symbol = `${asset}USDT`;
    if (symbols.includes(symbol)) return symbol;
    // A pair spelled otherwise (ETH/USDT).
    const { base } = splitSymbol(text.replace(/[^A-Z0-9]/g, ''));
    const fromPair = `${underlyingAsset(base)}USDT`;
    return symbols.includes(fromPair) ? fromPair : undefined;
  };

  // Follower: an adopted item is aged once its snapshot is older than the staleness window on the worker's
  // clock as this process keeps it; an aged item is shown with every venue stale.
  const adoptedAged = (item: MarketDataItem) => runtime.now() - Date.parse(item.updatedAt) > staleMs;
  const adoptedStale = () => runtime.now() - oldestAdopted > staleMs;
  const agedItem = (symbol: string): MarketDataItem | undefined => {
    const item = adoptedItems.get(symbol);
    if (!item || !adoptedAged(item)) return item;
    return { ...item, venues: item.venues.map((v) => ({ ...v, stale: true })) };
  };

  const runtime: MarketRuntime = {
    engine,
    defaultNotional: notional,
    // A follower keeps the worker's time: its `at` minus this process's clock when adopted (a replay's
    // clock starts with each process; for wall-clock sources this is the bus latency and host skew).
    now: () => clock.now() + (running() ? 0 : clockOffset),
    staleMs,
    fundingHistory: async (symbol, fromMs, toMs) =>
      (await source.fundingHistory?.(symbol, fromMs, toMs)) ?? [],
    freshness(symbol) {
      if (running()) {
        const s = engine.snapshot(symbol);
        return s && { mid: s.mid, updatedAt: s.updatedAt, venues: s.venues };
      }
      const item = adoptedItems.get(symbol);
      if (!item) return undefined;
      const updatedAt = Date.parse(item.updatedAt);
      const aged = adoptedAged(item);
      return {
        mid: item.price,
        updatedAt,
        venues: item.venues.map((v) => ({
          venue: v.venue,
          stale: v.stale || aged,
          outlier: v.outlier,
          updatedAt: v.updatedAt === null ? null : Date.parse(v.updatedAt),
        })),
      };
    },
    symbols: () => [...symbols],
    venues: () => [...source.venues],
    snapshot: (symbol) => engine.snapshot(symbol),
    recentCandles: (symbol, interval, count) => engine.recentCandles(symbol, interval, count),
    openCandle: (symbol, interval) =>
      running() ? engine.openCandle(symbol, interval) : adoptedOpen.get(symbol)?.get(interval),
    async candlesBetween(query: CandleQuery) {
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
        const open = runtime.openCandle(query.symbol, query.interval);
        const last = out.at(-1)?.openTime ?? Number.NEGATIVE_INFINITY;
        if (open && open.openTime > last && open.openTime >= query.fromMs && open.openTime < query.toMs)
          out.push(open);
      }
      return out;
    },
    onCandleClosed(handler) {
      closedHandlers.push(handler);
      return () => {
        const i = closedHandlers.indexOf(handler);
        if (i >= 0) closedHandlers.splice(i, 1);
      };
    },
    onSnapshot(handler) {
      snapshotHandlers.push(handler);
      return () => {
        const i = snapshotHandlers.indexOf(handler);
        if (i >= 0) snapshotHandlers.splice(i, 1);
      };
    },
    usdPriceNow(assetOrSymbol) {
      const s = resolveSymbol(assetOrSymbol);
      if (s === 'stable') return 1;
      if (!s) return null;
      return engine.snapshot(s)?.mid ?? engine.recentCandles(s, '1m', 1)[0]?.close ?? null;
    },
    async usdPrice(assetOrSymbol, atMs) {
      const s = resolveSymbol(assetOrSymbol);
      if (s === 'stable') return 1;
      if (!s) return null;
      const now = runtime.now();
      if (atMs === undefined || atMs >= floorTo(now, 60_000)) return runtime.usdPriceNow(s);
      const series = engine.memorySeries(s, '1m');
      const inMemory = series?.first && series.first.openTime <= atMs ? series.at(atMs) : undefined;
      const bar = inMemory ?? (await repository.at(s, MERGED, '1m', atMs));
      // A bar from long before the asked time is not a price at that time.
      if (!bar || atMs - bar.openTime > DAY) return null;
      return bar.close;
    },
    tickNow,
    marketDataBytes() {
      if (running() || !adoptedStale()) return allBytes;
      agedBytes ??= Buffer.from(JSON.stringify({ data: symbols.flatMap((s) => agedItem(s) ?? []) }));
      return agedBytes;
    },
    marketDataBody(list, n) {
      if (n === undefined || n === notional) {
        if (running() || !adoptedStale()) return bodyOf(list);
        return JSON.stringify({ data: list.flatMap((s) => agedItem(s) ?? []) });
      }
      const items: MarketDataItem[] = [];
      if (!running()) {
        // Follower: the adopted items with slippage re-walked on the published book (same function).
        for (const symbol of list) {
          const item = agedItem(symbol);
          if (!item) continue;
          const slippage = presentSlippage(followerSlippage(adoptedBooks.get(symbol), n));
          items.push({ ...item, liquidity: { ...item.liquidity, slippage } });
        }
        return JSON.stringify({ data: items });
      }
      for (const symbol of list) {
        const s = engine.snapshot(symbol);
        if (s) items.push(presentSnapshot(s, engine.slippageFor(symbol, n)));
      }
      return JSON.stringify({ data: items });
    },
    running,
    adoptMarketData(body, wire) {
      if (running()) return;
      try {
        const parsed = JSON.parse(body) as { data?: MarketDataItem[] };
        for (const item of parsed.data ?? []) {
          if (typeof item?.symbol !== 'string') continue;
          fragments.set(item.symbol, JSON.stringify(item));
          adoptedItems.set(item.symbol, item);
        }
        allBytes = Buffer.from(bodyOf(symbols));
        agedBytes = undefined;
        oldestAdopted = Number.POSITIVE_INFINITY;
        for (const item of adoptedItems.values())
          oldestAdopted = Math.min(oldestAdopted, Date.parse(item.updatedAt));
        const at = wire?.at;
        if (at !== undefined && Number.isFinite(at)) clockOffset = at - clock.now();
        const decoded = decodeFollowerWire(wire);
        adoptedBooks = decoded.books;
        adoptedOpen = decoded.open;
      } catch (error) {
        options.log?.warn({ err: error }, 'ignored a malformed market-data body from the bus');
      }
    },
    pendingWrites: () => pending.length,
    flush,
    status: () => ({ historyReady, persistedHistory, events: engine.stats.events, gaps: engine.stats.gaps }),
    async start(leaderTerm) {
      term = leaderTerm;
      stopped = false;
      await loadHistory();
      historyReady = true;
      await source.start((event) => engine.ingest(event));
      tickNow();
      timer = setInterval(tickNow, snapshotMs);
      timer.unref();
      // History is written in the background: the API serves from memory meanwhile.
      const firstWrite = flush().then(() => {
        persistedHistory = true;
      });
      // The write loop logs and retries a failed write itself; what reaches here is unexpected, logged.
      firstWrite.catch(logAndIgnore(warnLog, 'market history write failed'));
      writer = setInterval(() => {
        if (!writing && !stopped) flush().catch(logAndIgnore(warnLog, 'market candle write failed'));
      }, 2_000);
      writer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (writer) clearInterval(writer);
      await source.stop();
      await flush().catch(logAndIgnore(warnLog, 'market candle write at stop failed'));
    },
  };
  return runtime;
}
