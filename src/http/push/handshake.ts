import type { DerivativesTopics } from '../../modules/derivatives/index.ts';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/env.ts';
import type { WebSocket } from 'ws';
import type { AccountsService, AccountsTopics, Permission, Principal } from '../../modules/accounts/index.ts';
import type { EventsTopics } from '../../modules/events/index.ts';
import type { MarketTopics } from '../../modules/market/index.ts';
import type { PredictionsTopics } from '../../modules/predictions/index.ts';
import { type Bus, topics } from '../../shared/bus.ts';
import { AppError } from '../../shared/errors.ts';
import {
  isTokenShaped,
  offeredProtocols,
  protocolTokenOf,
  requirePermission,
  sessionCookieOf,
  socketOriginPolicy,
} from '../credentials.ts';
import type { AuthApi } from '../plugins/auth.ts';
import type { App } from '../types.ts';
import { logAndIgnore } from '../../shared/log-and-ignore.ts';
import { PROTOCOL as pushProtocol } from './predictions/protocol.ts';

/** Who opened a WebSocket, and with which credential (so a revocation can close exactly its sockets). */
export interface UpgradeCredential {
  principal: Principal;
  /** `token:<sha256>` (matches the revocation event's hash) or `session:<sha256>`. */
  credentialKey: string;
  sessionSecret?: string;
  /** Subprotocols the client offered. */
  offered: string[];
  /** The token, when the client sent it as a subprotocol (browsers cannot set headers on a WebSocket). */
  protocolToken?: string;
}

/**
 * The authentication every WebSocket handshake runs, the same code as REST (credentials.ts): origin
 * allow-list, then an API token from `Authorization: Bearer` or from `Sec-WebSocket-Protocol`, or the console
 * session cookie (from the console's own origin only), then the permission, then one request charged to the
 * account's rate limit. Failures are thrown as AppErrors, answered as problem documents before the upgrade.
 */
export function createUpgradeAuthenticator(auth: AuthApi, allowedOrigins: readonly string[]) {
  const origins = socketOriginPolicy(allowedOrigins);
  return async function authenticateUpgrade(
    request: FastifyRequest,
    reply: FastifyReply,
    permission: Permission,
  ): Promise<UpgradeCredential> {
    origins.checkOrigin(request);
    const offered = offeredProtocols(request.headers['sec-websocket-protocol']);
    const protocolToken = !request.headers.authorization ? protocolTokenOf(offered) : undefined;
    // The answer names one offered subprotocol, and it must never be the token (it would travel back in
    // every proxy's and browser's view of the handshake): a token needs a protocol name next to it.
    if (protocolToken && offered.every(isTokenShaped))
      throw new AppError(
        'bad_request',
        `offer ${pushProtocol} next to the token in Sec-WebSocket-Protocol ("${pushProtocol}, <token>"): the server never answers with the token`,
      );
    const principal: Principal = await auth.authenticate(request, 'token', protocolToken);
    let sessionSecret: string | undefined;
    if (principal.kind === 'session') {
      origins.checkSession(request);
      sessionSecret = sessionCookieOf(request)!;
    }
    // The hash the credential was resolved by: a revocation names it, and it closes exactly these sockets.
    const credentialKey = `${principal.kind}:${principal.credentialHash}`;
    requirePermission(principal, permission);
    await auth.charge(principal, reply);
    return { principal, credentialKey, sessionSecret, offered, protocolToken };
  };
}

/**
 * A connection id with a slot of the account's plan reserved for it; at the cap, the 429 every channel answers
 * (`streams` names what is counted: "push connections", "event streams", "market streams").
 */
export async function reserveConnection(
  hub: {
    newConnectionId(): string;
    reserve(principal: Principal, connectionId: string): Promise<{ ok: boolean; held: number }>;
  },
  principal: Principal,
  streams: string,
): Promise<string> {
  const connectionId = hub.newConnectionId();
  const slot = await hub.reserve(principal, connectionId);
  if (!slot.ok)
    throw new AppError(
      'too_many_connections',
      `this account already has ${slot.held} open ${streams}, the most its ${principal.plan} plan allows (${principal.wsConnections}); close one first`,
      { extra: { limit: principal.wsConnections, plan: principal.plan } },
    );
  return connectionId;
}

/** The subprotocol to answer with: `preferred` when offered, else the first offered one that is not the token. */
export function answerProtocol(credential: UpgradeCredential, preferred: string): string | false {
  if (credential.offered.includes(preferred)) return preferred;
  return credential.offered.find((p) => !isTokenShaped(p)) ?? false;
}

/** Rate-limit headers (and any extra) for the 101 answer. */
export function upgradeHeaders(reply: FastifyReply, requestId: string, extra: string[] = []): string[] {
  const headers: string[] = [];
  for (const name of ['ratelimit', 'ratelimit-policy']) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers.push(`${name}: ${value}`);
  }
  headers.push(...extra, `x-request-id: ${requestId}`);
  return headers;
}

/**
 * A WebSocket route: `handshake` (the route's onRequest hook) authenticates and admits, then calls `hold`
 * with what the socket will need; once upgraded, `adopt` receives it. Headers given to `hold` go on the 101
 * answer. If the upgrade never completes (the socket dies first), `release` gives back what was reserved.
 */
export function registerUpgradeRoute<A>(
  app: App,
  route: {
    url: string;
    docs: string;
    handshake(request: FastifyRequest, reply: FastifyReply, hold: Hold<A>): Promise<void>;
    adopt(socket: WebSocket, admission: A): void;
  },
): void {
  const pending = new WeakMap<IncomingMessage, { admission: A; headers: string[]; adopted: boolean }>();
  app.websocketServer.on('headers', (headers: string[], request: IncomingMessage) => {
    const entry = pending.get(request);
    if (entry) headers.push(...entry.headers);
  });
  app.route({
    method: 'GET',
    url: route.url,
    config: { auth: 'none' },
    schema: { hide: true },
    onRequest: async (request, reply) => {
      // A plain GET (no upgrade) reaches the handler, which answers 426.
      if (!request.ws) return;
      await route.handshake(request, reply, (admission, headers, release) => {
        const entry = { admission, headers, adopted: false };
        pending.set(request.raw, entry);
        request.raw.socket.once('close', () => {
          if (!entry.adopted) release().catch(logAndIgnore(app.log, 'push slot not given back'));
        });
      });
    },
    handler: async () => {
      throw new AppError(
        'upgrade_required',
        `${route.url} is a WebSocket endpoint: connect with a WebSocket client (see ${route.docs})`,
      );
    },
    wsHandler: (socket, request) => {
      const entry = pending.get(request.raw);
      if (!entry) {
        socket.close(1011, 'handshake state lost');
        return;
      }
      entry.adopted = true;
      route.adopt(socket, entry.admission);
    },
  });
}

export type Hold<A> = (admission: A, headers: string[], release: () => Promise<void>) => void;

/** A hub's options: its defaults, then the configured ping period and send buffer, then a test's overrides. */
export function hubOptionsOf<O extends { pingIntervalMs: number; maxBufferedBytes: number }>(
  config: Pick<Config, 'wsPingIntervalMs' | 'wsSendBufferBytes'>,
  defaults: O,
  overrides?: Partial<O>,
): O {
  return {
    ...defaults,
    pingIntervalMs: config.wsPingIntervalMs,
    maxBufferedBytes: config.wsSendBufferBytes,
    ...overrides,
  };
}

/** How a hub re-checks the stored credential behind an open socket (token, or console session). */
export const credentialRechecks = (
  accounts: Pick<AccountsService, 'isTokenStillValid' | 'authenticateSession'>,
) => ({
  isTokenStillValid: (tokenId: string) => accounts.isTokenStillValid(tokenId),
  isSessionStillValid: sessionStillValid(accounts),
});

/** Re-checks a console session behind an open socket: false once it is gone or expired. */
export function sessionStillValid(accounts: Pick<AccountsService, 'authenticateSession'>) {
  return (secret: string): Promise<boolean> =>
    accounts.authenticateSession(secret).then(
      () => true,
      (e) => {
        if (e instanceof AppError) return false;
        throw e;
      },
    );
}

/** The bus topics the push routes hear (a part of the process's table, app/bus-topics.ts). */
export type PushTopics = AccountsTopics &
  Pick<MarketTopics, typeof topics.marketSnapshot> &
  DerivativesTopics &
  EventsTopics &
  PredictionsTopics;

/**
 * For the scope's lifetime: `onPayload` for each message on `topic`, and token revocations (by hash) closing
 * the hub's sockets opened with that token; on close, both unsubscribed and the hub closed.
 */
export async function followBus<T extends keyof PushTopics>(
  app: App,
  bus: Bus<PushTopics>,
  topic: T,
  onPayload: (payload: PushTopics[T]) => void,
  hub: { revokeTokenHash(hash: string): void; close(): Promise<void> },
): Promise<void> {
  const stopTopic = await bus.subscribe(topic, onPayload);
  const stopRevoke = await bus.subscribe(topics.tokenRevoked, (change) => {
    if ('hash' in change) hub.revokeTokenHash(change.hash);
  });
  app.addHook('onClose', async () => {
    await stopTopic();
    await stopRevoke();
    await hub.close();
  });
}
