import type { Container } from '../../app/container.ts';
import { predictionsPushRoutes } from '../../ws/predictions/route.ts';
import { consoleRoutes } from '../console.ts';
import type { AuthApi } from '../plugins/auth.ts';
import type { RouteModule } from '../types.ts';
import { accountRoutes } from './account.ts';
import { authRoutes } from './auth.ts';
import { healthRoutes } from './health.ts';
import { marketRoutes } from './market.ts';
import { onchainRoutes } from './onchain.ts';
import { predictionsRoutes } from './predictions.ts';
import { problemRoutes } from './problems.ts';

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
    predictionsPushRoutes(container, auth),
    consoleRoutes(),
  ];
}
