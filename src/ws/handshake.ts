import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AuthApi } from '../http/plugins/auth.ts';
import { sessionCookieOf } from '../http/plugins/auth.ts';
import type { App } from '../http/types.ts';
import type { AccountsService, Permission, Principal } from '../modules/accounts/index.ts';
import { hashToken } from '../modules/accounts/token-format.ts';
import { type Bus, topics } from '../shared/bus.ts';
import { AppError } from '../shared/errors.ts';

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

const tokenShaped = /^mrd_[0-9A-Za-z]+$/;

/**
 * The authentication every WebSocket handshake runs, the same code as REST: origin allow-list, then an API
 * token from `Authorization: Bearer` or from `Sec-WebSocket-Protocol`, or the console session cookie (from the
 * console's own origin only), then the permission, then one request charged to the account's rate limit.
 * Failures are thrown as AppErrors, answered as problem documents before the upgrade.
 */
export function createUpgradeAuthenticator(auth: AuthApi, allowedOrigins: readonly string[]) {
  const allowed = allowedOrigins.map(normalizeOrigin);
  return async function authenticateUpgrade(
    request: FastifyRequest,
    reply: FastifyReply,
    permission: Permission,
  ): Promise<UpgradeCredential> {
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      allowed.length &&
      !allowed.includes('*') &&
      !allowed.includes(normalizeOrigin(origin))
    )
      throw new AppError('forbidden', `WebSocket connections from origin ${origin} are not allowed`);

    const offered = parseProtocols(request.headers['sec-websocket-protocol']);
    const offeredToken = offered.find((p) => tokenShaped.test(p));
    const protocolToken = !request.headers.authorization ? offeredToken : undefined;
    const principal: Principal = await auth.authenticate(request, 'token', protocolToken);
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
      const secret = protocolToken ?? /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')![1]!;
      credentialKey = `token:${hashToken(secret)}`;
    }
    if (!principal.permissions.has(permission))
      throw new AppError(
        'forbidden',
        `this needs the ${permission} permission, which these credentials lack`,
      );
    await auth.charge(principal, reply);
    return { principal, credentialKey, sessionSecret, offered, protocolToken };
  };
}

/** The subprotocol to answer with: `preferred` when offered, else the token itself if that is how it came. */
export function answerProtocol(credential: UpgradeCredential, preferred: string): string | false {
  if (credential.offered.includes(preferred)) return preferred;
  if (credential.protocolToken) return credential.protocolToken;
  return credential.offered[0] ?? false;
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
          if (!entry.adopted) release().catch(() => {});
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

/**
 * For the scope's lifetime: `onPayload` for each message on `topic`, and token revocations (by hash) closing
 * the hub's sockets opened with that token; on close, both unsubscribed and the hub closed.
 */
export async function followBus(
  app: App,
  bus: Bus,
  topic: string,
  onPayload: (payload: unknown) => void,
  hub: { revokeTokenHash(hash: string): void; close(): Promise<void> },
): Promise<void> {
  const stopTopic = await bus.subscribe(topic, onPayload);
  const stopRevoke = await bus.subscribe(topics.tokenRevoked, (payload) => {
    const hash = (payload as { hash?: unknown }).hash;
    if (typeof hash === 'string') hub.revokeTokenHash(hash);
  });
  app.addHook('onClose', async () => {
    await stopTopic();
    await stopRevoke();
    await hub.close();
  });
}
