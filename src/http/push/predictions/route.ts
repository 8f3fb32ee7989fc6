import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/env.ts';
import type { AccountsService } from '../../../modules/accounts/index.ts';
import type { AuthApi } from '../../plugins/auth.ts';
import type { App, RouteModule } from '../../types.ts';
import type { ParameterChange, SupportedSymbols } from '../../../modules/identifiers/index.ts';
import { NORMALIZATION_HEADER, normalizationHeaderValue } from '../../normalization-header.ts';
import type { Metrics } from '../../../observability/metrics.ts';
import { type Bus, topics } from '../../../shared/bus.ts';
import type { ConnectionSlotsFactory } from '../../../shared/connection-slots.ts';
import {
  type Hold,
  answerProtocol,
  createUpgradeAuthenticator,
  credentialRechecks,
  followBus,
  hubOptionsOf,
  type PushTopics,
  registerUpgradeRoute,
  reserveConnection,
  upgradeHeaders,
} from '../handshake.ts';
import { registerWebSocketScope, setChosenSubprotocol } from '../server-options.ts';
import type { Admission } from './connections.ts';
import { type PushHub, createPushHub } from './hub.ts';
import { type HubOptions, defaultHubOptions } from './options.ts';
import { PROTOCOL } from './protocol.ts';
import { Subscription, normalizeSelection, rawListsFromQuery } from './subscription.ts';

/** Tests shorten timings; production uses the defaults (documented in docs/push-channel.md). */
export interface PushRouteOptions {
  hub?: Partial<HubOptions>;
  /** Receives the hub once built (tests and the benchmark read its stats). */
  onHub?: (hub: PushHub) => void;
}

/** What the `/predictions` push route needs from the rest of the process. */
export interface PredictionsPushDeps {
  config: Pick<Config, 'wsAllowedOrigins' | 'wsPingIntervalMs' | 'wsSendBufferBytes'>;
  bus: Bus<PushTopics>;
  accounts: Pick<AccountsService, 'isTokenStillValid' | 'authenticateSession'>;
  metrics: Pick<Metrics, 'wsConnections'>;
  connectionSlots: ConnectionSlotsFactory;
  /** The supported symbol set: what subscriptions name and what "all symbols" means. */
  symbols: SupportedSymbols;
}

const hubs = new WeakMap<object, PushHub>();
/** The push hub serving an HTTP server (`app.server`; tests and the benchmark read its stats). */
export const pushHubOf = (server: object): PushHub | undefined => hubs.get(server);

/**
 * WebSocket `/predictions` on the API port. The handshake runs the same authentication and rate-limit
 * code as REST (one request charged per handshake; pushes are free) and is refused with a problem+json
 * answer before the upgrade: 401 bad/missing token, 403 origin or permission, 400 bad query, 429 rate
 * limit or connection cap. Everything after the upgrade is the hub's.
 */
export function predictionsPushRoutes(
  deps: PredictionsPushDeps,
  auth: AuthApi,
  options: PushRouteOptions = {},
): RouteModule {
  return async (app: App) => {
    // WebSocket upgrades run through the normal hooks and routes of this scope (auth is shared).
    await registerWebSocketScope(app, ['/predictions']);
    const { config, bus, accounts, metrics } = deps;
    const hubOptions = hubOptionsOf(config, defaultHubOptions, options.hub);
    const slots = deps.connectionSlots('predictions', hubOptions.pingIntervalMs * 3);
    const hub = createPushHub(
      {
        slots,
        ...credentialRechecks(accounts),
        onConnectionCountChange: (n) => metrics.wsConnections.set(n),
        symbols: deps.symbols,
        log: app.log,
      },
      hubOptions,
    );
    hubs.set(app.server, hub);
    options.onHub?.(hub);

    await followBus(app, bus, topics.predictionsRefreshed, (datapoints) => hub.publish(datapoints), hub);

    const authenticateUpgrade = createUpgradeAuthenticator(auth, config.wsAllowedOrigins);

    async function handshake(request: FastifyRequest, reply: FastifyReply, hold: Hold<Admission>) {
      const credential = await authenticateUpgrade(request, reply, 'predictions:read');
      const { principal, credentialKey, sessionSecret } = credential;

      const changes: ParameterChange[] = [];
      const raw = rawListsFromQuery(request.query as Record<string, unknown>);
      const selection =
        raw.symbols === undefined && raw.horizons === undefined
          ? null
          : normalizeSelection(
              deps.symbols,
              raw.symbols,
              raw.horizons,
              changes,
              (request.query as { strict?: unknown }).strict === 'true',
            );

      const connectionId = await reserveConnection(hub, principal, 'push connections');
      const normalized = normalizationHeaderValue(changes);
      const headers = upgradeHeaders(
        reply,
        request.id,
        normalized ? [`${NORMALIZATION_HEADER}: ${normalized}`] : [],
      );

      // The slot is held from here; if the upgrade never completes (the socket dies first) it is given back.
      hold(
        {
          principal,
          credentialKey,
          sessionSecret,
          subscription: Subscription.fromSelection(selection, deps.symbols),
          connectionId,
        },
        headers,
        () => hub.unreserve(principal, connectionId),
      );
      setChosenSubprotocol(request.raw, answerProtocol(credential, PROTOCOL));
    }

    registerUpgradeRoute(app, {
      url: '/predictions',
      docs: 'docs/push-channel.md',
      handshake,
      adopt: (socket, admission) => hub.adopt(socket, admission),
    });
  };
}
