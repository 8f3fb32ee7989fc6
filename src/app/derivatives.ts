import type { AppBus } from './bus-topics.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  type DerivativesService,
  type DerivativesSource,
  type DerivativesTables,
  createDerivativesService,
  createKyselyDerivativesRepository,
} from '../modules/derivatives/index.ts';
import { topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { LeaderTerm } from '../shared/leadership.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';
import type { Logger } from '../observability/logger.ts';
import type { Job } from './jobs.ts';
import type { CcxtDerivativesExchange } from '../adapters/derivatives/ccxt.ts';

export interface DerivativesModule {
  service: DerivativesService;
  source: DerivativesSource;
  job: Job;
}

/**
 * The derivatives source follows MERIDIAN_MARKET_SOURCE: the simulated market's perpetuals (same seed, same
 * prices), the replay folder's funding and mark files (on the replay's clock), or ccxt perpetual venues
 * (MERIDIAN_DERIVATIVES_VENUES, default the market's venues). Adapters are imported lazily (ccxt is large).
 */
async function buildSource(
  config: Config,
  symbols: readonly string[],
  dataClock: Clock,
  log: Logger,
  createExchange?: (venue: string) => CcxtDerivativesExchange | Promise<CcxtDerivativesExchange>,
): Promise<DerivativesSource> {
  const spec = config.marketSource;
  if (spec.kind === 'replay') {
    const { replayDerivativesSource } = await import('../adapters/derivatives/replay.ts');
    return replayDerivativesSource({ folder: spec.folder, symbols, clock: dataClock });
  }
  if (spec.kind === 'ccxt') {
    const { ccxtDerivativesSource } = await import('../adapters/derivatives/ccxt.ts');
    const venues = config.derivativesVenues.length ? config.derivativesVenues : spec.venues;
    return ccxtDerivativesSource({ venues, symbols, clock: dataClock, log, createExchange });
  }
  const { simulatedDerivativesSource } = await import('../adapters/derivatives/simulated.ts');
  const { PriceModel } = await import('../adapters/market/simulated/model.ts');
  const { profileOf } = await import('../adapters/market/simulated/universe.ts');
  return simulatedDerivativesSource({
    model: new PriceModel(config.simSeed, symbols, profileOf),
    symbols,
    clock: dataClock,
  });
}

/** Builds the derivatives module; its job (leader-only) polls, stores and publishes; others adopt. */
export async function buildDerivatives(
  config: Config,
  deps: {
    db: DbHandle;
    bus: AppBus;
    dataClock: Clock;
    symbols: readonly string[];
    sourceLabel: string;
    logger: Logger;
    createExchange?: (venue: string) => CcxtDerivativesExchange | Promise<CcxtDerivativesExchange>;
  },
): Promise<DerivativesModule> {
  const log = deps.logger;
  const source = await buildSource(config, deps.symbols, deps.dataClock, log, deps.createExchange);
  let term: LeaderTerm | undefined;
  const service = createDerivativesService({
    source,
    repository: createKyselyDerivativesRepository(tablesOf<DerivativesTables>(deps.db.db)),
    clock: source.clock ?? deps.dataClock,
    symbols: source.symbols,
    sourceLabel: deps.sourceLabel,
    staleMs: config.derivativesStaleMs,
    outlierBps: config.marketOutlierBps,
    refreshMs: config.derivativesRefreshMs,
    historyDays: config.derivativesHistoryDays,
    log,
    onPublish(update) {
      if (term && !term.current()) return;
      deps.bus
        .publish(topics.derivativesUpdate, update)
        .catch(logAndIgnore(log, 'derivatives update not published'));
    },
  });
  await deps.bus.subscribe(topics.derivativesUpdate, (message) => service.adopt(message));
  return {
    service,
    source,
    job: {
      name: 'derivatives',
      start: (leaderTerm) => {
        term = leaderTerm;
        return service.start(leaderTerm);
      },
      stop: () => service.stop(),
    },
  };
}
