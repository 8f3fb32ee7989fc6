import type { AppBus } from './bus-topics.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  createPredictionsService,
  createKyselyPredictionRepository,
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
  const service = createPredictionsService({
    market: deps.market,
    repository: createKyselyPredictionRepository(tablesOf<PredictionsTables>(deps.db.db)),
    clock: deps.clock,
    bus: deps.bus,
    refreshMs: config.modelRefreshMs,
    source: publicSourceLabel(config.marketSource),
    log: (msg, extra) => deps.logger.error(extra ?? {}, msg),
    note: (msg, extra) => deps.logger.info(extra ?? {}, msg),
  });
  return {
    service,
    job: { name: 'predictions-refresh', start: (term) => service.start(term), stop: () => service.stop() },
    async follow() {
      await service.load();
      service.following();
      return deps.bus.subscribe(topics.predictionsRefreshed, () => {
        service.load().catch(logAndIgnore(deps.logger, 'predictions not reloaded after a refresh'));
      });
    },
  };
}
