import { marketProvenance } from '../provenance.ts';
import { consoleRoutes } from '../console.ts';
import type { ServerDeps } from '../deps.ts';
import type { AuthApi } from '../plugins/auth.ts';
import { eventsStreamRoutes } from '../push/events/route.ts';
import { marketStreamRoutes } from '../push/market/route.ts';
import { mcpRoutes } from '../mcp/route.ts';
import { predictionsPushRoutes } from '../push/predictions/route.ts';
import type { RouteModule } from '../types.ts';
import { accountRoutes } from './account.ts';
import { alertsRoutes } from './alerts.ts';
import { analyticsRoutes } from './analytics.ts';
import { authRoutes } from './auth.ts';
import { auditLogRoutes } from './audit-log.ts';
import { twoFactorRoutes } from './two-factor.ts';
import { healthRoutes } from './health.ts';
import { marketRoutes } from './market.ts';
import { derivativesRoutes } from './derivatives.ts';
import { publicSourceLabel } from '../../config/source-label.ts';
import { labelsRoutes } from './labels.ts';
import { onchainRoutes } from './onchain.ts';
import { portfolioRoutes } from './portfolio.ts';
import { predictionsRoutes } from './predictions.ts';
import { problemRoutes } from './problems.ts';
import { ssoRoutes } from './sso.ts';
import { webhookRoutes } from './webhooks.ts';
import { alertChannelRoutes } from './alert-channels.ts';
import { oauthRoutes } from './oauth.ts';
import { createOAuthRateLimit } from '../oauth-rate-limit.ts';
import { organizationRoutes } from './organizations.ts';

/** Every route module (REST and push), in one list, each given only what it uses. Modules add their entry here. */
export function routeModules(deps: ServerDeps, auth: AuthApi): RouteModule[] {
  const { config, bus, accounts, connectionSlots, audit } = deps;
  return [
    healthRoutes({ readiness: () => deps.readiness(), metrics: deps.metrics }),
    problemRoutes(),
    authRoutes({ config, accounts, failures: auth.failures, limiter: deps.limiter, audit }),
    ssoRoutes({
      config,
      accounts,
      sso: deps.sso?.provider,
      log: deps.logger.child({ module: 'sso' }),
      audit,
    }),
    accountRoutes({ accounts, clock: deps.clock, audit }),
    twoFactorRoutes({ accounts, failures: auth.failures, limiter: deps.limiter, audit }),
    organizationRoutes({
      accounts,
      audit,
      consoleUrl: config.consoleUrl,
      mailInvitation: deps.webhooks.mailInvitation,
    }),
    auditLogRoutes({ audit }),
    oauthRoutes({
      oauth: deps.oauth,
      rateLimit: createOAuthRateLimit({
        limiter: deps.limiter,
        limits: { perClient: config.oauthClientRateLimit, perAddress: config.oauthAddressRateLimit },
      }),
    }),
    marketRoutes({
      market: deps.market.service,
      symbols: deps.symbols,
      source: publicSourceLabel(deps.config.marketSource),
    }),
    derivativesRoutes({ derivatives: deps.derivatives.service, symbols: deps.symbols }),
    onchainRoutes({ onchain: deps.onchain.service, labels: deps.labels.service }),
    labelsRoutes({ labels: deps.labels.service, book: deps.onchain.book, audit }),
    predictionsRoutes({ predictions: deps.predictions.service, symbols: deps.symbols }),
    portfolioRoutes({
      portfolio: deps.portfolio.portfolio,
      priceSource: config.marketSource.kind,
      audit,
    }),
    analyticsRoutes({ analytics: deps.portfolio.analytics }),
    alertsRoutes({ alerts: deps.alerts.service, labels: deps.labels.service, audit }),
    predictionsPushRoutes(
      { config, bus, accounts, metrics: deps.metrics, connectionSlots, symbols: deps.symbols },
      auth,
    ),
    webhookRoutes({ webhooks: deps.webhooks.service, audit }),
    alertChannelRoutes({ channels: deps.webhooks.channels, audit }),
    eventsStreamRoutes(
      {
        config,
        bus,
        accounts,
        connectionSlots,
        events: deps.webhooks.events,
        latestSeq: (accountId) => deps.webhooks.latestEventSeq(accountId),
        hub: deps.webhooks.eventsStream,
      },
      auth,
    ),
    marketStreamRoutes(
      {
        config,
        bus,
        accounts,
        connectionSlots,
        marketDataBody: () => deps.market.service.marketDataBytes().toString('utf8'),
        marketDataSubsetBody: (list) => deps.market.service.marketDataBody(list),
        symbols: deps.symbols,
        provenance: marketProvenance(deps.market.service, publicSourceLabel(deps.config.marketSource)),
        now: () => deps.market.service.now(),
      },
      auth,
    ),
    mcpRoutes({ auth }),
    consoleRoutes(),
  ];
}
