import type { Redis } from 'ioredis';
import type { DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import { type Clock, onClock } from '../shared/clock.ts';
import { type ComponentHealth, type ReadinessReport, summarize } from '../shared/readiness.ts';
import type { DerivativesModule } from './derivatives.ts';
import { derivativesHealth, historyHealth, indexerHealth, marketHealth, modelHealth } from './health.ts';
import type { MarketModule } from './market.ts';
import { combineHistoryProgress } from '../modules/market/index.ts';
import type { OnchainModule } from './onchain.ts';
import type { PartitionsModule } from './partitions.ts';
import type { PredictionsModule } from './predictions.ts';

/** What /readyz reads: storage and Redis (each within a deadline), and the health of each component. */
export function readinessCheck(deps: {
  config: Config;
  db: DbHandle;
  redis?: Redis;
  /** The data's clock (a replay's recorded time). */
  dataClock: Clock;
  market: MarketModule;
  derivatives?: DerivativesModule;
  onchain: OnchainModule;
  predictions: PredictionsModule;
  /** The partitions this process leads (MERIDIAN_MARKET_PARTITIONS > 1): their history fills, as one. */
  partitions?: Pick<PartitionsModule, 'running'>;
  workerMonitor: { health(): ComponentHealth | undefined };
  /** Single sign-on's provider, when configured. */
  sso?: { health(): ComponentHealth };
}): () => Promise<ReadinessReport> {
  const {
    config,
    db,
    redis,
    dataClock,
    market,
    derivatives,
    onchain,
    predictions,
    partitions,
    workerMonitor,
  } = deps;
  return async () => {
    // Each check answers within its deadline whatever storage or Redis does (a frozen server never
    // answers at all), so /readyz itself always answers within a second.
    const [storage, cache] = await Promise.all([
      withDeadline(db.ping(), readinessDeadlineMs).then(
        () => null,
        (e: Error) => `unreachable: ${e.message}`,
      ),
      redis
        ? withDeadline(redis.ping(), readinessDeadlineMs).then(
            () => null,
            () => 'unreachable: rate limits are enforced per replica until it returns',
          )
        : undefined,
    ]);
    // Ages are measured on the data's clock (a replay's recorded time; on an API replica, the worker's).
    const now = market.service.now();
    const components: Record<string, ComponentHealth> = {
      storage: storage === null ? { status: 'ok' } : { status: 'down', reason: storage },
    };
    if (cache !== undefined)
      components.redis = cache === null ? { status: 'ok' } : { status: 'degraded', reason: cache };
    const marketState = marketHealth(market.service.symbols(), market.service.freshness, now);
    if (marketState) components.market = marketState;
    if (derivatives) {
      const service = derivatives.service;
      const state = derivativesHealth(
        service.views(derivatives.source.symbols),
        service.now(),
        service.staleMs,
      );
      if (state) components.derivatives = state;
    }
    const historyState = historyHealth(
      partitions
        ? combineHistoryProgress(partitions.running().map((p) => p.market.historyProgress()))
        : market.service.historyProgress(),
    );
    if (historyState) components.history = historyState;
    for (const chain of onchain.chains) {
      const indexerState = indexerHealth(chain.indexer.status(), dataClock.now());
      if (indexerState)
        components[onchain.chains.length === 1 ? 'indexer' : `indexer:${chain.spec.name}`] = indexerState;
    }
    const predictionsStatus = predictions.service.status();
    const modelState = modelHealth(
      predictionsStatus,
      onClock(dataClock, config.modelRefreshMs),
      dataClock.now(),
    );
    if (modelState) components.model = modelState;
    const workerState = workerMonitor.health();
    if (workerState) components.worker = workerState;
    if (deps.sso) components.sso = deps.sso.health();
    return summarize(components, predictionsStatus.phase === 'starting');
  };
}

const readinessDeadlineMs = 600;

/** Rejects when the promise has not settled in time (the work itself goes on; its result is ignored). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
