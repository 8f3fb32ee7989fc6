import type { AppBus } from './bus-topics.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import { publicSourceLabel } from '../config/source-label.ts';
import {
  type AlertsLogger,
  type AlertsService,
  type AlertsTables,
  type BacktestSources,
  createAlertsService,
  createEvaluator,
  createKyselyAlertsRepository,
  type DerivativesCoverage,
  type DerivativesHistory,
  type Evaluator,
  type FlowEvent,
  type FlowHistory,
  type MarketHistory,
  type PredictionLevels,
} from '../modules/alerts/index.ts';
import type {
  DerivativesMetric,
  DerivativesService,
  DerivativesSource,
} from '../modules/derivatives/index.ts';
import type { EventsTables } from '../modules/events/index.ts';
import type { SupportedSymbols } from '../modules/identifiers/index.ts';
import {
  createKyselyPredictionRepository,
  levelProbabilities,
  type PredictionRepository,
  type PredictionsTables,
  type TouchExcursionsOf,
} from '../modules/predictions/index.ts';
import type { MarketRuntime, MarketService } from '../modules/market/index.ts';
import type { OnchainService } from '../modules/onchain/index.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from './jobs.ts';

export interface AlertsModule {
  service: AlertsService;
  evaluator: Evaluator;
  /** The evaluator as a background job (wrapped in leadership by the container). */
  job: Job;
}

/** Merged 1-minute bars from the market service (memory, else storage), in pages of its 1000-row limit. */
function marketHistory(market: Pick<MarketService, 'candlesBetween'>): MarketHistory {
  return {
    async minuteBars(symbol, fromMs, toMs) {
      const out: Array<{ openTime: number; close: number; quoteVolume: number }> = [];
      let from = fromMs;
      for (;;) {
        const page = await market.candlesBetween({ symbol, interval: '1m', fromMs: from, toMs, limit: 1000 });
        for (const c of page) out.push({ openTime: c.openTime, close: c.close, quoteVolume: c.quoteVolume });
        if (page.length < 1000) return out;
        from = page.at(-1)!.openTime + 60_000;
      }
    },
  };
}

type DerivativesReads = Pick<DerivativesService, 'history' | 'views' | 'source'>;

/** A day of stored open interest and liquidations per minute, in pages of the history's 1000-point limit. */
function derivativesHistory(service: DerivativesReads): DerivativesHistory {
  async function minutes(symbol: string, metric: DerivativesMetric, fromMs: number, toMs: number) {
    const out: Array<{ time: number; value: number | null; value2: number | null }> = [];
    let from = fromMs;
    for (;;) {
      const page = await service.history({
        symbol,
        metric,
        intervalMs: 60_000,
        fromMs: from,
        toMs,
        limit: 1000,
      });
      out.push(...page.map((b) => ({ time: b.start, value: b.value, value2: b.value2 })));
      if (page.length < 1000) return out;
      from = page.at(-1)!.start + 60_000;
    }
  }
  return {
    async openInterest(symbol, fromMs, toMs) {
      const points = await minutes(symbol, 'open_interest', fromMs, toMs);
      return points.flatMap((p) => (p.value === null ? [] : [{ time: p.time, usd: p.value }]));
    },
    async liquidations(symbol, fromMs, toMs) {
      const points = await minutes(symbol, 'liquidations', fromMs, toMs);
      return points.map((p) => ({ time: p.time, longUsd: p.value ?? 0, shortUsd: p.value2 ?? 0 }));
    },
  };
}

const RULE_METRIC = {
  funding: 'funding',
  open_interest: 'open_interest',
  liquidations: 'liquidations',
} as const;
const METRIC_WORDS: Record<string, string> = {
  funding: 'funding rates',
  open_interest: 'open interest',
  liquidations: 'liquidations',
};

/**
 * What a derivatives rule can watch: a symbol the source covers (and, once a refresh has shown it, one some
 * venue lists a perpetual for), and a metric the source publishes at all.
 */
export function derivativesCoverage(
  source: Pick<DerivativesSource, 'symbols' | 'metrics'>,
  service: Pick<DerivativesService, 'views' | 'source'>,
): DerivativesCoverage {
  return {
    gap(symbol, type) {
      if (!source.symbols.includes(symbol))
        return {
          field: 'symbol',
          message: `has no perpetual on the ${service.source} derivatives source (covered: ${source.symbols.join(', ')})`,
        };
      const view = service.views([symbol])[0];
      if (view && view.venues.length === 0)
        return {
          field: 'symbol',
          message: `no venue of the ${service.source} derivatives source lists a perpetual for ${symbol}`,
        };
      if (!source.metrics.includes(RULE_METRIC[type]))
        return {
          field: 'type',
          message: `the ${service.source} derivatives source publishes no ${METRIC_WORDS[type]}`,
        };
      return undefined;
    },
  };
}

/**
 * The level probabilities of one stored forecast datapoint, by the predictions module's own computation (the
 * numbers of GET /api/predictions/probability for that datapoint).
 */
export function predictionLevels(
  predictions: Pick<PredictionRepository, 'between'>,
  touchExcursions?: TouchExcursionsOf,
): PredictionLevels {
  return {
    async at(symbol, horizon, generatedAt, levels) {
      const [row] = await predictions.between(symbol, horizon, generatedAt, generatedAt);
      if (!row) return undefined;
      return {
        baseline: row.baseline,
        prediction: row.prediction,
        levels: levelProbabilities(row, levels, touchExcursions?.(symbol, horizon)),
      };
    },
  };
}

/** Bounds the start-up read of stored flows (500 a page). */
const MAX_FLOW_PAGES = 100;

/** Stored flows, newest first, back to `sinceMs`, through the flows service's keyset pages. */
export function flowHistory(
  onchain: Pick<OnchainService, 'listFlows'>,
  log?: { warn(obj: object, msg: string): void },
): FlowHistory {
  return {
    async flowsSince(sinceMs) {
      const out: FlowEvent[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_FLOW_PAGES; page++) {
        const result = await onchain.listFlows({ limit: 500, cursor });
        for (const flow of result.data) {
          if (flow.timestamp <= sinceMs) return out;
          out.push(flow as unknown as FlowEvent);
        }
        if (!result.nextCursor) return out;
        cursor = result.nextCursor;
      }
      log?.warn({ flows: out.length }, 'alerts: stored flows beyond the start-up read limit are not counted');
      return out;
    },
  };
}

/** Where a backtest reads: the market's history reader and the stored flows, newest first, down to `fromMs`. */
export function backtestSources(
  market: Pick<MarketRuntime, 'candlesBetween' | 'historyState'>,
  onchain: Pick<OnchainService, 'listFlows' | 'provenance'>,
  marketSource: string,
): BacktestSources {
  const bars = marketHistory(market);
  return {
    marketSource,
    minuteBars: (symbol, fromMs, toMs) => bars.minuteBars(symbol, fromMs, toMs),
    marketHistory: (symbol) => {
      const state = market.historyState(symbol);
      return { from: state.from, backfilling: state.filling };
    },
    async flowsBetween(condition, fromMs, toMs) {
      const { source } = await onchain.provenance();
      const flows: FlowEvent[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_FLOW_PAGES; page++) {
        const result = await onchain.listFlows({
          limit: 500,
          cursor,
          exchange: condition.exchange,
          asset: condition.asset,
          // A single-transfer rule only fires on a transfer of at least minUsd.
          minUsd: condition.window ? undefined : condition.minUsd,
        });
        for (const flow of result.data) {
          if (flow.timestamp < fromMs) return { flows, complete: true, source };
          if (flow.timestamp < toMs) flows.push(flow as unknown as FlowEvent);
        }
        if (!result.nextCursor) return { flows, complete: true, source };
        cursor = result.nextCursor;
      }
      return { flows, complete: false, source };
    },
  };
}

/**
 * Builds the alerts module: rules service (API) and evaluator (job). `resolveExchange` is the on-chain
 * module's resolver, so a rule accepts exactly the exchanges the flows endpoint knows.
 */
export function buildAlerts(
  config: Config,
  deps: {
    db: DbHandle;
    bus: AppBus;
    clock: Clock;
    logger: AlertsLogger;
    market?: Pick<MarketRuntime, 'candlesBetween' | 'historyState'>;
    onchain?: Pick<OnchainService, 'listFlows' | 'provenance'>;
    /** The derivatives module: funding, open-interest and liquidation rules read its refreshes. */
    derivatives?: { service: DerivativesReads; source: Pick<DerivativesSource, 'symbols' | 'metrics'> };
    symbols: SupportedSymbols;
    resolveExchange(input: string): string;
    /** The predictions module's learned touch excursions where it runs in this process (else reflection). */
    touchExcursions?: TouchExcursionsOf;
  },
): AlertsModule {
  const repo = createKyselyAlertsRepository(tablesOf<AlertsTables & EventsTables>(deps.db.db));
  const service = createAlertsService({
    repo,
    bus: deps.bus,
    clock: deps.clock,
    symbols: deps.symbols,
    resolveExchange: deps.resolveExchange,
    derivatives: deps.derivatives && derivativesCoverage(deps.derivatives.source, deps.derivatives.service),
    caps: { standard: config.alertsActiveStandard, pro: config.alertsActivePro },
    log: deps.logger,
    backtest:
      deps.market && deps.onchain
        ? backtestSources(deps.market, deps.onchain, publicSourceLabel(config.marketSource))
        : undefined,
  });
  const evaluator = createEvaluator({
    repo,
    bus: deps.bus,
    clock: deps.clock,
    log: deps.logger,
    history: deps.market ? marketHistory(deps.market) : undefined,
    flowHistory: deps.onchain ? flowHistory(deps.onchain, deps.logger) : undefined,
    derivativesHistory: deps.derivatives && derivativesHistory(deps.derivatives.service),
    predictionLevels: predictionLevels(
      createKyselyPredictionRepository(tablesOf<PredictionsTables>(deps.db.db)),
      deps.touchExcursions,
    ),
  });
  return {
    service,
    evaluator,
    job: { name: 'alerts-evaluator', start: (term) => evaluator.start(term), stop: () => evaluator.stop() },
  };
}
