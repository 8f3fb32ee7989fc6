import type { DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import type { MarketRuntime } from '../modules/market/index.ts';
import type { PredictionsService } from '../modules/predictions/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job, LeaderTerm, Leadership, SharedJobs } from '../shared/leadership.ts';
import type { AppBus } from './bus-topics.ts';
import type { MarketModule } from './market.ts';
import { buildPartitionPredictions } from './predictions.ts';
import type { DerivativesService } from '../modules/derivatives/index.ts';

/** A partition this process leads now: its symbols, its lease's term, its market and its model refresh. */
export interface RunningPartition {
  index: number;
  symbols: readonly string[];
  term: LeaderTerm;
  market: MarketRuntime;
  predictions: PredictionsService;
}

export interface PartitionsModule {
  /** The campaign for the partitions (`market:0` … `market:<n-1>`), this process taking its fair share. */
  job: SharedJobs;
  /** The partitions this process leads now, by index. */
  running(): RunningPartition[];
}

/**
 * MERIDIAN_MARKET_PARTITIONS > 1 (docs/operations.md, "Partitions"): the market job and the model refresh,
 * split by symbol. Partition `n` is one job, leased as `market:<n>`: while this process leads it, it runs the
 * market of the partition's symbols (feed, working window, history fill and backfill, snapshots published with
 * the partition and term) and their model refresh over that market's in-memory window — market and model of a
 * partition in one process. Both write under the partition's term, so a deposed leader's candles and forecasts
 * are refused. Everything is built when the lease is won and dropped when it is lost.
 */
export function buildPartitions(
  config: Config,
  deps: {
    db: DbHandle;
    bus: AppBus;
    /** The data's clock (forecasts and their scoring). */
    dataClock: Clock;
    market: MarketModule;
    /** The derivatives module the partitions' models read funding, basis and open interest from. */
    derivatives?: DerivativesService;
    leadership: Leadership;
    logger: Logger;
  },
): PartitionsModule {
  const running = new Map<number, RunningPartition>();
  const jobs: Job[] = deps.market.partitions.map((symbols, index) => {
    let current: RunningPartition | undefined;
    return {
      name: `market:${index}`,
      async start(term) {
        if (!term) throw new Error(`partition ${index} started without a leadership term`);
        const market = await deps.market.buildPartition(index, term);
        const predictions = buildPartitionPredictions(config, {
          db: deps.db,
          bus: deps.bus,
          clock: deps.dataClock,
          market,
          derivatives: deps.derivatives,
          logger: deps.logger.child({ module: 'predictions', partition: index }),
        });
        current = { index, symbols, term, market, predictions };
        running.set(index, current);
        deps.logger.info(
          { partition: index, term: term.term, symbols: symbols.length },
          'partition starting',
        );
        await market.start(term);
        await predictions.start(term);
      },
      async stop() {
        const stopping = current;
        current = undefined;
        if (!stopping) return;
        running.delete(index);
        // Both at once: each stops its timers (the feed, the refresh) before its first wait, so a partition whose
        // storage hangs still stops feeding and refreshing at once; what it still tries to write is fenced.
        await Promise.all([stopping.predictions.stop(), stopping.market.stop()]);
        deps.logger.info({ partition: index, term: stopping.term.term }, 'partition stopped');
      },
    };
  });
  return {
    job: deps.leadership.fairShare('market', jobs),
    running: () => [...running.values()].sort((a, b) => a.index - b.index),
  };
}
