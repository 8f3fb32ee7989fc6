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
  credentialRechecks,
  followBus,
  hubOptionsOf,
  type PushTopics,
  registerUpgradeRoute,
  reserveConnection,
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
import type { SupportedSymbols } from '../../../modules/identifiers/index.ts';
import { type MarketSelector, createMarketSelector } from '../../market-selection.ts';
import { NORMALIZATION_HEADER, NormalizationLog } from '../../normalization-header.ts';

export interface MarketStreamDeps {
  config: Pick<Config, 'wsAllowedOrigins' | 'wsPingIntervalMs' | 'wsSendBufferBytes'>;
  bus: Bus<PushTopics>;
  connectionSlots: ConnectionSlotsFactory;
  accounts: Pick<AccountsService, 'isTokenStillValid' | 'authenticateSession'>;
  /** The current market-data body of every symbol (default notional). */
  marketDataBody(): string;
  /** The current body of a subset of symbols (joined pre-serialized fragments, default notional). */
  marketDataSubsetBody(symbols: readonly string[]): string;
  /** The supported symbol set: what `symbols` and `quote` on the URL select from. */
  symbols: SupportedSymbols;
  /** The market's provenance and time (see `marketProvenance`). */
  provenance(): Provenance;
  now(): number;
  hub?: Partial<MarketHubOptions>;
  onHub?(hub: MarketHub): void;
}

/** At most this many entries in the URL's `symbols` list: more is a validation error. */
const MAX_SYMBOLS_ON_URL = 500;

/**
 * The URL's selection: `symbols` (also `symbol`; comma-separated, repeatable), `quote`, `strict=true` —
 * normalized as `GET /api/market-data` does (the changes go in `log`). `undefined`: every symbol; otherwise the
 * subset in configured order, so equal sets share one group (one frame per snapshot).
 */
function subscriptionOf(
  query: Record<string, unknown>,
  selector: MarketSelector,
  supported: SupportedSymbols,
  log: NormalizationLog,
): readonly string[] | undefined {
  const raw: string[] = [];
  for (const value of [query.symbols, query.symbol].flat())
    if (typeof value === 'string') for (const part of value.split(',')) if (part.trim()) raw.push(part);
  if (raw.length > MAX_SYMBOLS_ON_URL)
    throw new AppError('validation_failed', `at most ${MAX_SYMBOLS_ON_URL} symbols`, {
      errors: [{ pointer: '/query/symbols', message: `at most ${MAX_SYMBOLS_ON_URL} entries` }],
    });
  const quote = [query.quote].flat().find((v): v is string => typeof v === 'string');
  if (raw.length === 0 && quote === undefined) return undefined;
  const list = selector.select(
    { symbols: raw.length ? raw : undefined, quote, strict: [query.strict].flat().includes('true') },
    log,
  );
  if (list === supported.list) return undefined;
  const ordered = selector.inConfiguredOrder(list);
  return ordered.length === supported.list.length ? undefined : ordered;
}

/**
 * WebSocket `/market`: the market snapshot (`GET /api/market-data`'s items at the default notional) on
 * connect and after each published change — of every symbol, or of the subset chosen on the URL (`symbols`,
 * `quote`). Authenticated exactly like `/predictions` (Bearer header, token as subprotocol, or the console
 * session with an allowed Origin) and needs `market:read`.
 */
export function marketStreamRoutes(deps: MarketStreamDeps, auth: AuthApi): RouteModule {
  return async (app: App) => {
    await registerWebSocketScope(app, ['/market']);
    const { config, bus, accounts } = deps;
    const options = hubOptionsOf(config, defaultMarketHubOptions, deps.hub);
    const hub = createMarketHub(
      {
        slots: deps.connectionSlots('market', options.pingIntervalMs * 3),
        currentBody: deps.marketDataBody,
        bodyOf: deps.marketDataSubsetBody,
        provenance: deps.provenance,
        now: deps.now,
        ...credentialRechecks(accounts),
        log: app.log,
      },
      options,
    );
    deps.onHub?.(hub);
    // The worker publishes each snapshot on the bus (at most once a second); an API replica hears it
    // through Redis, a single process through the in-memory bus.
    // With partitions a message carries one partition's symbols: the frame is the body this process has put
    // together from every partition's (adopted before this handler runs: the market subscribed first).
    await followBus(
      app,
      bus,
      topics.marketSnapshot,
      (message) =>
        hub.publish(
          message.partition === undefined ? message : { body: deps.marketDataBody(), at: message.at },
        ),
      hub,
    );

    // Derivatives updates for the subscribed symbols (the derivatives job publishes one per refresh).
    const stopDerivatives = await bus.subscribe(topics.derivativesUpdate, (update) =>
      hub.publishDerivatives(update),
    );
    app.addHook('onClose', stopDerivatives);

    const authenticateUpgrade = createUpgradeAuthenticator(auth, config.wsAllowedOrigins);
    const selector = createMarketSelector(deps.symbols);

    async function handshake(request: FastifyRequest, reply: FastifyReply, hold: Hold<MarketAdmission>) {
      const credential = await authenticateUpgrade(request, reply, 'market:read');
      const { principal } = credential;
      const log = new NormalizationLog();
      const symbols = subscriptionOf(request.query as Record<string, unknown>, selector, deps.symbols, log);
      const connectionId = await reserveConnection(hub, principal, 'market streams');
      const normalized = log.value();
      hold(
        {
          principal,
          credentialKey: credential.credentialKey,
          sessionSecret: credential.sessionSecret,
          connectionId,
          symbols,
        },
        upgradeHeaders(reply, request.id, normalized ? [`${NORMALIZATION_HEADER}: ${normalized}`] : []),
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
