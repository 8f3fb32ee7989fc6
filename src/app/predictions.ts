import type { AppBus } from './bus-topics.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import type { DerivativesService } from '../modules/derivatives/index.ts';
import {
  createPredictionsService,
  createKyselyPredictionRepository,
  type PredictionRepository,
  type PredictionsDerivativesPort,
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
export function buildPredictions(config: Config, deps: PredictionsDeps): PredictionsModule {
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
export function buildPartitionPredictions(config: Config, deps: PredictionsDeps): PredictionsService {
  const stored = createKyselyPredictionRepository(tablesOf<PredictionsTables>(deps.db.db), {
    now: () => deps.clock.now(),
  });
  const owned = deps.market.symbols();
  const repository: PredictionRepository = {
    ...stored,
    // The record loaded at start: this partition's rows (the others' are scored by their own partitions).
    since: (since, q) => stored.since(since, { ...q, symbols: owned }),
  };
  return createPredictionsService({ ...serviceOptions(config, deps), repository });
}

interface PredictionsDeps {
  db: DbHandle;
  bus: AppBus;
  clock: Clock;
  market: PredictionsMarketPort;
  /** The derivatives module: the `funding` member's funding, basis and open interest. */
  derivatives?: DerivativesService;
  logger: Logger;
}

/** Stored points asked for per query; the model's span (up to 15 days of quarter hours) takes a few pages. */
const PAGE = 1_000;
const OPEN_INTEREST_SAMPLE_MS = 15 * 60_000;

/**
 * The derivatives module as the model reads it: the merged funding rate and basis of a fresh view (a stale one
 * counts as absent), settled funding as stored, open interest sampled every 15 minutes (the newest point of
 * each quarter hour). A symbol the module has no view of has none of them.
 */
export function derivativesForModel(service: DerivativesService): PredictionsDerivativesPort {
  const stored = async (
    symbol: string,
    metric: 'funding' | 'open_interest',
    intervalMs: number,
    fromMs: number,
    toMs: number,
  ) => {
    const out: { time: number; value: number }[] = [];
    for (let from = fromMs; ; ) {
      const page = await service.history({ symbol, metric, intervalMs, fromMs: from, toMs, limit: PAGE });
      for (const p of page) if (p.value !== null) out.push({ time: p.time, value: p.value });
      if (page.length < PAGE) return out;
      from = page.at(-1)!.start + intervalMs;
    }
  };
  return {
    latest(symbol) {
      const view = service.views([symbol])[0];
      if (!view) return undefined;
      if (view.stale) return { fundingRate: null, fundingIntervalHours: null, basisBps: null };
      return {
        fundingRate: view.funding?.rate ?? null,
        fundingIntervalHours: view.funding?.intervalHours ?? null,
        basisBps: view.basis?.bps ?? null,
      };
    },
    async fundingHistory(symbol, fromMs, toMs) {
      const points = await stored(symbol, 'funding', 3_600_000, fromMs, toMs);
      return points.map((p) => ({ time: p.time, rate: p.value }));
    },
    async openInterestHistory(symbol, fromMs, toMs) {
      const points = await stored(symbol, 'open_interest', OPEN_INTEREST_SAMPLE_MS, fromMs, toMs);
      return points.filter((p) => p.value > 0).map((p) => ({ time: p.time, usd: p.value }));
    },
  };
}

function serviceOptions(config: Config, deps: Omit<PredictionsDeps, 'db'>) {
  return {
    market: deps.market,
    derivatives: deps.derivatives && derivativesForModel(deps.derivatives),
    clock: deps.clock,
    bus: deps.bus,
    refreshMs: config.modelRefreshMs,
    source: publicSourceLabel(config.marketSource),
    log: (msg: string, extra?: Record<string, unknown>) => deps.logger.error(extra ?? {}, msg),
    note: (msg: string, extra?: Record<string, unknown>) => deps.logger.info(extra ?? {}, msg),
  };
}
