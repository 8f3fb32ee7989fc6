import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/env.ts';
import type { AuthApi } from '../../plugins/auth.ts';
import type { App, RouteModule } from '../../types.ts';
import type { AccountsService } from '../../../modules/accounts/index.ts';
import { type Bus, topics } from '../../../shared/bus.ts';
import { AppError } from '../../../shared/errors.ts';
import {
  type Hold,
  answerProtocol,
  createUpgradeAuthenticator,
  followBus,
  type PushTopics,
  registerUpgradeRoute,
  sessionStillValid,
  upgradeHeaders,
} from '../handshake.ts';
import type { ConnectionSlotsFactory } from '../../../shared/connection-slots.ts';
import { PROTOCOL } from '../predictions/protocol.ts';
import { registerWebSocketScope, setChosenSubprotocol } from '../server-options.ts';
import {
  type MarketAdmission,
  type MarketHub,
  type MarketHubOptions,
  createMarketHub,
  defaultMarketHubOptions,
} from './hub.ts';
import type { Provenance } from '../../provenance.ts';

export interface MarketStreamDeps {
  config: Pick<Config, 'wsAllowedOrigins' | 'wsPingIntervalMs' | 'wsSendBufferBytes'>;
  bus: Bus<PushTopics>;
  connectionSlots: ConnectionSlotsFactory;
  accounts: Pick<AccountsService, 'isTokenStillValid' | 'authenticateSession'>;
  /** The current `GET /api/market-data` body (all symbols, default notional). */
  marketDataBody(): string;
  /** The market's provenance and time (see `marketProvenance`). */
  provenance(): Provenance;
  now(): number;
  hub?: Partial<MarketHubOptions>;
  onHub?(hub: MarketHub): void;
}

/**
 * WebSocket `/market`: the market snapshot (`GET /api/market-data`'s items for every symbol at the default
 * notional) on connect and after each published change. Authenticated exactly like `/predictions` (Bearer
 * header, token as subprotocol, or the console session with an allowed Origin) and needs `market:read`.
 */
export function marketStreamRoutes(deps: MarketStreamDeps, auth: AuthApi): RouteModule {
  return async (app: App) => {
    await registerWebSocketScope(app, ['/market']);
    const { config, bus, accounts } = deps;
    const options: MarketHubOptions = {
      ...defaultMarketHubOptions,
      pingIntervalMs: config.wsPingIntervalMs,
      maxBufferedBytes: config.wsSendBufferBytes,
      ...deps.hub,
    };
    const hub = createMarketHub(
      {
        slots: deps.connectionSlots('market', options.pingIntervalMs * 3),
        currentBody: deps.marketDataBody,
        provenance: deps.provenance,
        now: deps.now,
        isTokenStillValid: (id) => accounts.isTokenStillValid(id),
        isSessionStillValid: sessionStillValid(accounts),
        log: app.log,
      },
      options,
    );
    deps.onHub?.(hub);
    // The worker publishes each snapshot on the bus (at most once a second); an API replica hears it
    // through Redis, a single process through the in-memory bus.
    await followBus(app, bus, topics.marketSnapshot, (message) => hub.publish(message), hub);

    const authenticateUpgrade = createUpgradeAuthenticator(auth, config.wsAllowedOrigins);

    async function handshake(request: FastifyRequest, reply: FastifyReply, hold: Hold<MarketAdmission>) {
      const credential = await authenticateUpgrade(request, reply, 'market:read');
      const { principal } = credential;
      const connectionId = hub.newConnectionId();
      const slot = await hub.reserve(principal, connectionId);
      if (!slot.ok)
        throw new AppError(
          'too_many_connections',
          `this account already has ${slot.held} open market streams, the most its ${principal.plan} plan allows (${principal.wsConnections}); close one first`,
          { extra: { limit: principal.wsConnections, plan: principal.plan } },
        );
      hold(
        {
          principal,
          credentialKey: credential.credentialKey,
          sessionSecret: credential.sessionSecret,
          connectionId,
        },
        upgradeHeaders(reply, request.id),
        () => hub.unreserve(principal, connectionId),
      );
      setChosenSubprotocol(request.raw, answerProtocol(credential, PROTOCOL));
    }

    registerUpgradeRoute(app, {
      url: '/market',
      docs: 'docs/push-channel.md',
      handshake,
      adopt: (socket, admission) => hub.adopt(socket, admission),
    });
  };
}
