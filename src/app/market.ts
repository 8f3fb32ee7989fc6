import type { AppBus } from './bus-topics.ts';
import type { CcxtExchange } from '../adapters/market/ccxt/index.ts';
import { tablesOf, type DbHandle } from '../adapters/db/connect.ts';
import { simulatedSource, simulatedUniverse } from '../adapters/market/simulated/index.ts';
import type { Config } from '../config/env.ts';
import {
  type MarketRuntime,
  type MarketServiceOptions,
  type MarketSource,
  type MarketTables,
  createMarketService,
  createKyselyCandleRepository,
  partitionSymbols,
} from '../modules/market/index.ts';
import {
  DEFAULT_SYMBOLS,
  type SupportedSymbols,
  canonicalSymbols,
  createSupportedSymbols,
} from '../modules/identifiers/index.ts';
import { topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { LeaderTerm } from '../shared/leadership.ts';
import type { Job } from './jobs.ts';
import type { Logger } from '../observability/logger.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';

export interface MarketModule {
  service: MarketRuntime;
  source: MarketSource;
  /**
   * The supported symbol set — the configured symbols the source serves — made here once and handed to
   * every other part that normalizes or lists symbols (routes, push, alerts, portfolio).
   */
  symbols: SupportedSymbols;
  job: Job;
  /** The symbols of each partition (MERIDIAN_MARKET_PARTITIONS; one list, the universe, by default). */
  partitions: readonly (readonly string[])[];
  /**
   * Builds (does not start) the market of one partition: a source over the partition's symbols and a service
   * whose publications carry the partition and `term` (its lease's), refused once the term is no longer current.
   */
  buildPartition(index: number, term: LeaderTerm): Promise<MarketRuntime>;
}

/**
 * Picks the market source from MERIDIAN_MARKET_SOURCE, serving the symbols of MERIDIAN_SYMBOLS: the listed ones
 * (`listed`, canonical), or with `top:N` the source's N most liquid markets (docs/market.md, "The universe").
 * Adapters are imported lazily (ccxt is large).
 */
async function buildMarketSource(
  config: Config,
  listed: readonly string[] | undefined,
  clock: Clock,
  log?: Logger,
  createExchange?: (venue: string) => CcxtExchange | Promise<CcxtExchange>,
): Promise<MarketSource> {
  const spec = config.marketSource;
  const top = config.universe.kind === 'top' ? config.universe.count : 0;
  if (spec.kind === 'replay') {
    const { replaySource } = await import('../adapters/market/replay/index.ts');
    const source = await replaySource({
      folder: spec.folder,
      ...(listed ? { symbols: listed } : { top }),
      speed: config.replaySpeed,
      strict: config.replayStrict,
    });
    if (source.missing.length)
      log?.warn(
        { missing: source.missing, folder: spec.folder },
        `replay: no candle file for ${source.missing.join(', ')}; these symbols are not served (MERIDIAN_REPLAY_STRICT=true refuses instead)`,
      );
    if (!listed)
      log?.[source.symbols.length < top ? 'warn' : 'info'](
        { symbols: source.symbols, folder: spec.folder },
        `replay: top:${top} serves the folder's ${source.symbols.length} largest dollar-quoted symbols by recorded quote volume`,
      );
    return source;
  }
  if (spec.kind === 'ccxt') {
    if (!listed) {
      const { ccxtTopSource } = await import('../adapters/market/ccxt/universe.ts');
      return ccxtTopSource({ venues: spec.venues, count: top, clock, log, createExchange });
    }
    const { ccxtSource } = await import('../adapters/market/ccxt/index.ts');
    return ccxtSource({ venues: spec.venues, symbols: listed, clock, log, createExchange });
  }
  const symbols = listed ?? simulatedUniverse(top).map((m) => m.symbol);
  return simulatedSource({ symbols, seed: config.simSeed, clock });
}

/** Builds the market module: source, candle store, service; its job starts the feed and the aggregator. */
export async function buildMarket(
  config: Config,
  deps: {
    db: DbHandle;
    bus: AppBus;
    clock: Clock;
    logger: Logger;
    createExchange?: (venue: string) => CcxtExchange | Promise<CcxtExchange>;
  },
): Promise<MarketModule> {
  // The universe: the configured list (canonical), or `top:N` resolved by the source.
  const listed = config.universe.kind === 'list' ? canonicalSymbols(config.universe.symbols) : undefined;
  const source = await buildMarketSource(config, listed, deps.clock, deps.logger, deps.createExchange);
  const symbols = createSupportedSymbols(
    source.symbols.length ? source.symbols : (listed ?? DEFAULT_SYMBOLS),
  );
  const log = deps.logger;
  const repository = createKyselyCandleRepository(tablesOf<MarketTables>(deps.db.db));
  const serviceOptions = {
    repository,
    clock: deps.clock,
    staleMs: config.marketStaleMs,
    outlierBps: config.marketOutlierBps,
    notional: config.marketNotional,
    historyDays: config.marketHistoryDays,
  };
  let leaderTerm: LeaderTerm | undefined;
  const service = createMarketService({
    ...serviceOptions,
    source,
    symbols: symbols.list,
    log,
    onPublish: publisherFor(deps.bus, log, () => leaderTerm),
  });
  // Follower: a process that does not run the market job serves what the worker publishes — from the
  // newest leadership term it has heard of (a deposed leader's late message is ignored). With partitions, each
  // partition's leader publishes its symbols under its own lease's term: the newest term is kept per partition.
  let newestTerm = 0;
  const newestPartitionTerm = new Map<number, number>();
  await deps.bus.subscribe(topics.marketSnapshot, (message) => {
    const { partition } = message;
    if (partition === undefined) {
      if (message.term < newestTerm) return;
      newestTerm = message.term;
    } else {
      if (message.term < (newestPartitionTerm.get(partition) ?? 0)) return;
      newestPartitionTerm.set(partition, message.term);
    }
    if (!service.running()) service.adoptMarketData(message.body, message);
  });
  const partitions = partitionSymbols(symbols.list, config.marketPartitions);
  return {
    service,
    source,
    symbols,
    job: {
      name: 'market',
      start: (term) => {
        leaderTerm = term;
        return service.start(term);
      },
      stop: () => service.stop(),
    },
    partitions,
    async buildPartition(index, term) {
      const list = partitions[index] ?? [];
      const partLog = log.child({ partition: index });
      // The universe is already resolved: a partition's source serves its listed symbols.
      const partSource = await buildMarketSource(config, list, deps.clock, partLog, deps.createExchange);
      return createMarketService({
        ...serviceOptions,
        source: partSource,
        symbols: list,
        log: partLog,
        onPublish: publisherFor(deps.bus, partLog, () => term, index),
      });
    },
  };
}

/**
 * What the market job (or a partition's) publishes: every merged closed candle, and the snapshot at most once a
 * second with the serialized market-data body and what a follower needs besides (books for other notionals,
 * bars in progress; docs/market.md), so API replicas that do not run the feed (role `api`) answer as the
 * worker does. A leader that can no longer confirm its term publishes nothing; what it publishes carries the
 * term (and the partition, when there are several).
 */
function publisherFor(
  bus: AppBus,
  log: Logger,
  term: () => LeaderTerm | undefined,
  partition?: number,
): NonNullable<MarketServiceOptions['onPublish']> {
  let lastSnapshotPublish = 0;
  return (...[topic, payload]) => {
    const leaderTerm = term();
    if (leaderTerm && !leaderTerm.current()) return;
    if (topic === 'candle') {
      bus.publish(topics.marketCandle, payload).catch(logAndIgnore(log, 'candle not published'));
      return;
    }
    const now = Date.now();
    if (now - lastSnapshotPublish < 1000) return;
    lastSnapshotPublish = now;
    const { body, follower, ...rest } = payload;
    // Built in a task of its own, after the tick: the follower part walks every book (≈ 1–1.5 ms), and
    // requests waiting behind the tick should not wait for it too. A live feed's messages of this loop turn
    // may move the books in between; followers adopt once a second, so that is within their lag.
    setImmediate(() => {
      bus
        .publish(topics.marketSnapshot, {
          ...rest,
          body: body.toString('utf8'),
          ...follower(),
          term: leaderTerm?.term ?? 0,
          ...(partition === undefined ? {} : { partition }),
        })
        .catch(logAndIgnore(log, 'market snapshot not published'));
    });
  };
}
