import type { LeaderTerm } from '../shared/leadership.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import { type AccountsService, accountLimitKey } from '../modules/accounts/index.ts';
import {
  type AlertsSummarySource,
  type AnalyticsService,
  createAnalyticsService,
  type OAuthClientsSource,
  type TrackRecordSource,
} from '../modules/analytics/index.ts';
import type { OAuthService } from '../modules/oauth/index.ts';
import type { MarketService } from '../modules/market/index.ts';
import {
  type AssetQuote,
  type PortfolioService,
  type PortfolioTables,
  createKyselyPortfolioRepository,
  createPortfolioService,
  presentPortfolio,
} from '../modules/portfolio/index.ts';
import type { PredictionsService } from '../modules/predictions/index.ts';
import {
  type SupportedSymbols,
  isDollar,
  splitSymbol,
  underlyingAsset,
} from '../modules/identifiers/index.ts';
import {
  type UsageCounter,
  type UsageTables,
  createKyselyUsageRepository,
  createUsageCounter,
} from '../modules/usage/index.ts';
import type { Clock } from '../shared/clock.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import { type RateLimiter, accountRateWindowMs } from '../shared/rate-limiter.ts';
import type { Job } from './jobs.ts';
import type { Logger } from '../observability/logger.ts';
import { sweepJob } from '../shared/sweep-job.ts';

export interface PortfolioModule {
  portfolio: PortfolioService;
  usage: UsageCounter;
  analytics: AnalyticsService;
  /** Deletes expired idempotency keys (leader only). */
  job: Job;
}

/** Holdings are valued at the market module's consolidated mid; stablecoins at 1 USD. */
function marketQuotes(market: Pick<MarketService, 'usdPriceNow' | 'snapshot'>) {
  return {
    quote(asset: string): AssetQuote | null {
      const price = market.usdPriceNow(asset);
      if (price === null) return null;
      if (isDollar(asset)) return { price, change24hPct: 0, asOf: null };
      const snapshot = market.snapshot(`${underlyingAsset(asset)}USDT`);
      return { price, change24hPct: snapshot?.change24hPct ?? null, asOf: snapshot?.updatedAt ?? null };
    },
  };
}

/** An access token's OAuth client: the accounts module knows its grant, the OAuth module the grant's client. */
function oauthClientsOfTokens(
  accounts: Pick<AccountsService, 'grantsOfTokens'>,
  oauth: Pick<OAuthService, 'clientsOfGrants'>,
): OAuthClientsSource {
  return {
    async clientsOfTokens(accountId, tokenIds) {
      const grants = await accounts.grantsOfTokens(accountId, tokenIds);
      const clients = await oauth.clientsOfGrants([...new Set(grants.values())]);
      const out = new Map<string, { id: string; name: string }>();
      for (const [tokenId, grantId] of grants) {
        const client = clients.get(grantId);
        if (client) out.set(tokenId, client);
      }
      return out;
    },
  };
}

/** The forecast record as the predictions module serves it (GET /api/predictions/performance), parsed once per refresh. */
function predictionsTrackRecord(predictions: Pick<PredictionsService, 'performance'>): TrackRecordSource {
  let seen: Buffer | undefined;
  let parsed: ReturnType<TrackRecordSource['trackRecord']> | undefined;
  return {
    trackRecord() {
      const bytes = predictions.performance();
      if (bytes !== seen || !parsed) {
        const report = JSON.parse(bytes.toString('utf8'));
        parsed = { rows: report.data, modelVersion: report.modelVersion, generatedAt: report.generatedAt };
        seen = bytes;
      }
      return parsed;
    },
  };
}

/**
 * Builds the portfolio module (import, holdings), the API usage counter (flushed every
 * MERIDIAN_USAGE_FLUSH_MS, started here: every process that serves HTTP counts) and dashboard analytics.
 */
export function buildPortfolio(
  config: Config,
  deps: {
    db: DbHandle;
    clock: Clock;
    market: MarketService;
    symbols: SupportedSymbols;
    predictions: PredictionsService;
    accounts: AccountsService;
    limiter: RateLimiter;
    logger: Logger;
    alerts?: AlertsSummarySource;
    /** Names OAuth access tokens in usage by their OAuth client. */
    oauth?: Pick<OAuthService, 'clientsOfGrants'>;
  },
): PortfolioModule {
  const log = deps.logger;
  const portfolio = createPortfolioService({
    repo: createKyselyPortfolioRepository(tablesOf<PortfolioTables>(deps.db.db)),
    clock: deps.clock,
    prices: marketQuotes(deps.market),
    extraAssets: () => deps.symbols.list.map((s) => splitSymbol(s).base),
    log: (message, fields) => log.warn(fields, message),
  });
  const usage = createUsageCounter({
    repo: createKyselyUsageRepository(tablesOf<UsageTables>(deps.db.db)),
    clock: deps.clock,
    flushMs: config.usageFlushMs,
    log: (message, fields) => log.warn(fields, message),
  });
  usage.start();
  const analytics = createAnalyticsService({
    portfolio: {
      async summary(accountId) {
        const view = presentPortfolio(await portfolio.holdings(accountId));
        return {
          totals: view.totals,
          allocation: view.holdings.map((h) => ({
            asset: h.asset,
            valueUsd: h.valueUsd,
            allocationPct: h.allocationPct,
          })),
        };
      },
    },
    alerts: deps.alerts,
    usage,
    // The usage view's account is an organization: all its members' tokens.
    tokens: { listTokens: (accountId) => deps.accounts.listTokens(undefined, accountId) },
    oauthClients: deps.oauth && oauthClientsOfTokens(deps.accounts, deps.oauth),
    limits: { window: (accountId) => deps.limiter.peek(accountLimitKey(accountId), accountRateWindowMs) },
    trackRecord: predictionsTrackRecord(deps.predictions),
    clock: deps.clock,
    cacheMs: config.analyticsCacheMs,
    usageFlushMs: config.usageFlushMs,
  });
  portfolio.onChange((accountId) => analytics.invalidate(accountId));

  let term: LeaderTerm | undefined;
  const pruner = periodicJob({
    name: 'idempotency-keys-pruner',
    everyMs: 3_600_000,
    run: () => portfolio.pruneIdempotencyKeys(term),
    log,
  });
  return {
    portfolio,
    usage,
    analytics,
    job: sweepJob(pruner, (leaderTerm) => {
      term = leaderTerm;
    }),
  };
}
