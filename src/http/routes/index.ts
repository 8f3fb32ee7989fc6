import type { Container } from '../../app/container.ts';
import { eventsStreamRoutes } from '../../ws/events/route.ts';
import { marketStreamRoutes } from '../../ws/market/route.ts';
import { predictionsPushRoutes } from '../../ws/predictions/route.ts';
import { consoleRoutes } from '../console.ts';
import type { AuthApi } from '../plugins/auth.ts';
import type { RouteModule } from '../types.ts';
import { accountRoutes } from './account.ts';
import { analyticsRoutes } from './analytics.ts';
import { alertsRoutes } from './alerts.ts';
import { authRoutes } from './auth.ts';
import { healthRoutes } from './health.ts';
import { marketRoutes } from './market.ts';
import { onchainRoutes } from './onchain.ts';
import { portfolioRoutes } from './portfolio.ts';
import { predictionsRoutes } from './predictions.ts';
import { problemRoutes } from './problems.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every route module, in one list. Modules add their entry here. */
export function routeModules(container: Container, auth: AuthApi): RouteModule[] {
  return [
    healthRoutes(container),
    problemRoutes(),
    authRoutes(container),
    accountRoutes(container),
    marketRoutes({ market: container.market.service }),
    onchainRoutes({ onchain: container.onchain.service }),
    predictionsRoutes({ predictions: container.predictions.service }),
    portfolioRoutes({
      portfolio: container.portfolio.portfolio,
      priceSource: container.config.marketSource.kind,
    }),
    analyticsRoutes({ analytics: container.portfolio.analytics }),
    alertsRoutes({ alerts: container.alerts.service }),
    predictionsPushRoutes(container, auth),
    webhookRoutes({ webhooks: container.webhooks.service }),
    eventsStreamRoutes(
      {
        config: container.config,
        bus: container.bus,
        redis: container.redis,
        accounts: container.accounts,
        events: container.webhooks.events,
        latestSeq: (accountId) => container.webhooks.latestEventSeq(accountId),
      },
      auth,
    ),
    marketStreamRoutes(
      {
        config: container.config,
        bus: container.bus,
        redis: container.redis,
        accounts: container.accounts,
        marketDataBody: () => container.market.service.marketDataBytes().toString('utf8'),
      },
      auth,
    ),
    consoleRoutes(),
  ];
}
