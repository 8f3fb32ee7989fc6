import type { AppBus } from './bus-topics.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  createPredictionsService,
  createKyselyPredictionRepository,
  type PredictionRepository,
  type PredictionsMarketPort,
  type PredictionsService,
  type PredictionsTables,
} from '../modules/predictions/index.ts';
import { topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from './jobs.ts';
import type { Logger } from '../observability/logger.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';
import { publicSourceLabel } from '../config/source-label.ts';

export interface PredictionsModule {
  service: PredictionsService;
  /** Worker role: warm-up replay, then one refresh every MERIDIAN_MODEL_REFRESH_MS. */
  job: Job;
  /** API role without the job: reload the recent record from storage whenever a refresh is announced. */
  follow(): Promise<() => Promise<void>>;
}

/** Builds the predictions module over the market service (any object with the port's three methods). */
export function buildPredictions(
  config: Config,
  deps: { db: DbHandle; bus: AppBus; clock: Clock; market: PredictionsMarketPort; logger: Logger },
): PredictionsModule {
  const severalPublishers = config.marketPartitions > 1;
  const service = createPredictionsService({
    ...serviceOptions(config, deps),
    repository: createKyselyPredictionRepository(tablesOf<PredictionsTables>(deps.db.db), {
      now: () => deps.clock.now(),
    }),
    severalPublishers,
  });
  return {
    service,
    job: { name: 'predictions-refresh', start: (term) => service.start(term), stop: () => service.stop() },
    async follow() {
      await service.load();
      service.following();
      const failed = logAndIgnore(deps.logger, 'predictions not reloaded after a refresh');
      if (!severalPublishers)
        return deps.bus.subscribe(topics.predictionsRefreshed, () => {
          service.load().catch(failed);
        });
      // One refresh per partition and period: the reloads they call for are merged — one at a time, and one more
      // after it when refreshes were announced meanwhile.
      let loading: Promise<void> | undefined;
      let again = false;
      const reload = (): void => {
        if (loading) {
          again = true;
          return;
        }
        loading = service
          .load()
          .catch(failed)
          .finally(() => {
            loading = undefined;
            if (again) {
              again = false;
              reload();
            }
          });
      };
      return deps.bus.subscribe(topics.predictionsRefreshed, reload);
    },
  };
}

/**
 * The model refresh of one market partition (MERIDIAN_MARKET_PARTITIONS > 1), over that partition's market
 * (its in-memory working window): it forecasts, scores and loads the partition's symbols only, and its writes
 * carry the partition's lease term. Its market-wide features read the basket of the partition's symbols.
 */
export function buildPartitionPredictions(
  config: Config,
  deps: { db: DbHandle; bus: AppBus; clock: Clock; market: PredictionsMarketPort; logger: Logger },
): PredictionsService {
  const stored = createKyselyPredictionRepository(tablesOf<PredictionsTables>(deps.db.db), {
    now: () => deps.clock.now(),
  });
  const owned = new Set(deps.market.symbols());
  const repository: PredictionRepository = {
    ...stored,
    // The record loaded at start: this partition's rows (the others' are scored by their own partitions).
    since: async (since) => (await stored.since(since)).filter((r) => owned.has(r.symbol)),
  };
  return createPredictionsService({ ...serviceOptions(config, deps), repository });
}

function serviceOptions(
  config: Config,
  deps: { bus: AppBus; clock: Clock; market: PredictionsMarketPort; logger: Logger },
) {
  return {
    market: deps.market,
    clock: deps.clock,
    bus: deps.bus,
    refreshMs: config.modelRefreshMs,
    source: publicSourceLabel(config.marketSource),
    log: (msg: string, extra?: Record<string, unknown>) => deps.logger.error(extra ?? {}, msg),
    note: (msg: string, extra?: Record<string, unknown>) => deps.logger.info(extra ?? {}, msg),
  };
}
