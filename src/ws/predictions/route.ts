import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../app/container.ts';
import type { AuthApi } from '../../http/plugins/auth.ts';
import { sessionCookieOf } from '../../http/plugins/auth.ts';
import type { App, RouteModule } from '../../http/types.ts';
import type { Principal } from '../../modules/accounts/index.ts';
import { hashToken } from '../../modules/accounts/token-format.ts';
import {
  NORMALIZATION_HEADER,
  type ParameterChange,
  normalizationHeaderValue,
} from '../../modules/symbols/index.ts';
import { topics } from '../../shared/bus.ts';
import { AppError } from '../../shared/errors.ts';
import { registerWebSocketScope, setChosenSubprotocol } from '../server-options.ts';
import { memorySlots, redisSlots } from './connection-slots.ts';
import {
  type Admission,
  type HubOptions,
  type PushHub,
  createPushHub,
  datapointsOf,
  defaultHubOptions,
} from './hub.ts';
import { PROTOCOL } from './protocol.ts';
import { Subscription, normalizeSelection, rawListsFromQuery } from './subscription.ts';

/** Tests shorten timings; production uses the defaults (documented in docs/push-channel.md). */
export interface PushRouteOptions {
  hub?: Partial<HubOptions>;
  /** Receives the hub once built (tests and the benchmark read its stats). */
  onHub?: (hub: PushHub) => void;
}

const tokenShaped = /^mrd_[0-9A-Za-z]+$/;

const hubs = new WeakMap<Container, PushHub>();
/** The push hub serving a container's API (tests and the benchmark read its stats). */
export const pushHubOf = (container: Container): PushHub | undefined => hubs.get(container);

interface Pending {
  admission: Admission;
  /** Extra headers for the 101 answer (rate limit, normalization). */
  headers: string[];
  adopted: boolean;
}

/**
 * WebSocket `/predictions` on the API port. The handshake runs the same authentication and rate-limit
 * code as REST (one request charged per handshake; pushes are free) and is refused with a problem+json
 * answer before the upgrade: 401 bad/missing token, 403 origin or permission, 400 bad query, 429 rate
 * limit or connection cap. Everything after the upgrade is the hub's.
 */
export function predictionsPushRoutes(
  container: Container,
  auth: AuthApi,
  options: PushRouteOptions = {},
): RouteModule {
  return async (app: App) => {
    // WebSocket upgrades run through the normal hooks and routes of this scope (auth is shared).
    await registerWebSocketScope(app, ['/predictions']);
    const { config, bus, accounts, metrics } = container;
    const hubOptions: HubOptions = {
      ...defaultHubOptions,
      pingIntervalMs: config.wsPingIntervalMs,
      maxBufferedBytes: config.wsSendBufferBytes,
      ...options.hub,
    };
    const slots = container.redis
      ? redisSlots(container.redis, hubOptions.pingIntervalMs * 3)
      : memorySlots();
    const hub = createPushHub(
      {
        slots,
        isTokenStillValid: (id) => accounts.isTokenStillValid(id),
        isSessionStillValid: (secret) =>
          accounts.authenticateSession(secret).then(
            () => true,
            (e) => {
              if (e instanceof AppError) return false;
              throw e;
            },
          ),
        onConnectionCountChange: (n) => metrics.wsConnections.set(n),
        log: app.log,
      },
      hubOptions,
    );
    hubs.set(container, hub);
    options.onHub?.(hub);

    const stopRefresh = await bus.subscribe(topics.predictionsRefreshed, (payload) =>
      hub.publish(datapointsOf(payload)),
    );
    const stopRevoke = await bus.subscribe(topics.tokenRevoked, (payload) => {
      const hash = (payload as { hash?: unknown }).hash;
      if (typeof hash === 'string') hub.revokeTokenHash(hash);
    });
    app.addHook('onClose', async () => {
      await stopRefresh();
      await stopRevoke();
      await hub.close();
    });

    const pending = new WeakMap<IncomingMessage, Pending>();
    // Extra headers on the 101 answer: the rate-limit state and any normalized query parameter.
    app.websocketServer.on('headers', (headers: string[], request: IncomingMessage) => {
      const entry = pending.get(request);
      if (entry) headers.push(...entry.headers);
    });

    const allowed = config.wsAllowedOrigins.map(normalizeOrigin);

    async function handshake(request: FastifyRequest, reply: FastifyReply) {
      // A plain GET (no upgrade) reaches the handler, which answers 426.
      if (!request.ws) return;
      const origin = request.headers.origin;
      if (
        origin !== undefined &&
        allowed.length &&
        !allowed.includes('*') &&
        !allowed.includes(normalizeOrigin(origin))
      )
        throw new AppError('forbidden', `WebSocket connections from origin ${origin} are not allowed`);

      const offered = parseProtocols(request.headers['sec-websocket-protocol']);
      const protocolToken = offered.find((p) => tokenShaped.test(p));
      const usesProtocolToken = !request.headers.authorization && protocolToken !== undefined;
      const principal: Principal = await auth.authenticate(
        request,
        'token',
        usesProtocolToken ? protocolToken : undefined,
      );
      let credentialKey: string;
      let sessionSecret: string | undefined;
      if (principal.kind === 'session') {
        // A browser sends cookies on a cross-site WebSocket handshake too: only the console's own origin.
        if (
          origin !== undefined &&
          hostOf(origin) !== request.headers.host &&
          !allowed.includes(normalizeOrigin(origin))
        )
          throw new AppError(
            'csrf_rejected',
            `a console session cannot open a WebSocket from origin ${origin}`,
          );
        sessionSecret = sessionCookieOf(request)!;
        credentialKey = `session:${sha256(sessionSecret)}`;
      } else {
        const secret = usesProtocolToken
          ? protocolToken!
          : /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')![1]!;
        credentialKey = `token:${hashToken(secret)}`;
      }
      if (!principal.permissions.has('predictions:read'))
        throw new AppError(
          'forbidden',
          'this needs the predictions:read permission, which these credentials lack',
        );
      await auth.charge(principal, reply);

      const changes: ParameterChange[] = [];
      const raw = rawListsFromQuery(request.query as Record<string, unknown>);
      const selection =
        raw.symbols === undefined && raw.horizons === undefined
          ? null
          : normalizeSelection(
              raw.symbols,
              raw.horizons,
              changes,
              (request.query as { strict?: unknown }).strict === 'true',
            );

      const connectionId = hub.newConnectionId();
      const slot = await hub.reserve(principal, connectionId);
      if (!slot.ok) {
        throw new AppError(
          'too_many_connections',
          `this account already has ${slot.held} open push connections, the most its ${principal.plan} plan allows (${principal.wsConnections}); close one first`,
          { extra: { limit: principal.wsConnections, plan: principal.plan } },
        );
      }
      const headers: string[] = [];
      for (const name of ['ratelimit', 'ratelimit-policy']) {
        const value = reply.getHeader(name);
        if (typeof value === 'string') headers.push(`${name}: ${value}`);
      }
      const normalized = normalizationHeaderValue(changes);
      if (normalized) headers.push(`${NORMALIZATION_HEADER}: ${normalized}`);
      headers.push(`x-request-id: ${request.id}`);

      const entry: Pending = {
        admission: {
          principal,
          credentialKey,
          sessionSecret,
          subscription: Subscription.fromSelection(selection),
          connectionId,
        },
        headers,
        adopted: false,
      };
      pending.set(request.raw, entry);
      // The slot is held from here; if the upgrade never completes (the socket dies first) give it back.
      request.raw.socket.once('close', () => {
        if (!entry.adopted) hub.unreserve(principal, connectionId).catch(() => {});
      });
      setChosenSubprotocol(
        request.raw,
        offered.includes(PROTOCOL) ? PROTOCOL : usesProtocolToken ? protocolToken! : (offered[0] ?? false),
      );
    }

    app.route({
      method: 'GET',
      url: '/predictions',
      config: { auth: 'none' },
      schema: { hide: true },
      onRequest: handshake,
      handler: async () => {
        throw new AppError(
          'upgrade_required',
          '/predictions is a WebSocket endpoint: connect with a WebSocket client (see docs/push-channel.md)',
        );
      },
      wsHandler: (socket, request) => {
        const entry = pending.get(request.raw);
        if (!entry) {
          socket.close(1011, 'handshake state lost');
          return;
        }
        entry.adopted = true;
        hub.adopt(socket, entry.admission);
      },
    });
  };
}

function parseProtocols(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
