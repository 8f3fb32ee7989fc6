import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '../../modules/accounts/index.ts';
import type { ConnectionSlots } from '../../shared/connection-slots.ts';
import { type WarnLog, logAndIgnore } from '../../shared/log-and-ignore.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
import { startHeartbeat } from './heartbeat.ts';
import { type InboundWindow, countInbound, inboundWindow } from './inbound-limit.ts';
import { closeCodes } from './predictions/protocol.ts';

/** What every upgraded socket was admitted with (the handshake's credential and its reserved slot). */
export interface BaseAdmission {
  principal: Principal;
  /** `token:<sha256>` (matches the revocation event's hash) or `session:<sha256>`. */
  credentialKey: string;
  sessionSecret?: string;
  connectionId: string;
}

/** The part of a socket every hub keeps. */
export interface BaseConnection<A extends BaseAdmission = BaseAdmission> {
  id: string;
  ws: WebSocket;
  accountId: string;
  admission: A;
  /** Set by the socket's pong (or any message); cleared at each ping. */
  alive: boolean;
  closing: boolean;
  inbound: InboundWindow;
}

export interface HubBaseDeps<C extends BaseConnection> {
  /** `/events` or `/market`: names the hub's jobs and log lines. */
  channel: string;
  slots: ConnectionSlots;
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
  log: WarnLog;
  pingIntervalMs: number;
  /** Backstop period: each open socket's credential is re-checked against the store, then `afterCheck` runs. */
  sweepMs: number;
  /** After a socket's credential was re-checked and found valid (the `/events` log read). */
  afterCheck?(conn: C): Promise<void>;
  /** A socket the sweep leaves alone this time (one replaying its log). */
  skipSweep?(conn: C): boolean;
  /** A socket left: the hub's own indexes drop it (its slot is given back here). */
  onForget?(conn: C): void;
  now?: () => number;
}

const CLOSE_GRACE_MS = 5_000;

/**
 * What the `/events` and `/market` hubs share: their sockets, connection slots, the heartbeat, the credential
 * sweep, the inbound message limit (as `/predictions`: over it, 4429), revocation and shutdown. A hub adds
 * what it sends and how it indexes sockets.
 */
export function createHubBase<C extends BaseConnection>(deps: HubBaseDeps<C>) {
  const connections = new Set<C>();
  const now = deps.now ?? Date.now;
  let stopped = false;

  function shut(conn: C, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    conn.ws.close(code, reason);
    setTimeout(() => conn.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  function forget(conn: C) {
    if (!connections.delete(conn)) return;
    deps.onForget?.(conn);
    deps.slots
      .release(conn.accountId, conn.id)
      .catch(logAndIgnore(deps.log, 'push: releasing a connection slot failed; its lease lapses'));
  }

  async function credentialValid(conn: C): Promise<boolean> {
    const { principal, sessionSecret } = conn.admission;
    if (principal.tokenExpiresAt && principal.tokenExpiresAt <= Date.now()) return false;
    if (principal.kind === 'token' && principal.tokenId) return deps.isTokenStillValid(principal.tokenId);
    if (sessionSecret) return deps.isSessionStillValid(sessionSecret);
    return true;
  }

  async function sweep() {
    for (const conn of [...connections]) {
      if (conn.closing || deps.skipSweep?.(conn)) continue;
      try {
        if (!(await credentialValid(conn))) {
          shut(conn, closeCodes.credentialsEnded, 'credentials revoked or expired');
          continue;
        }
        await deps.afterCheck?.(conn);
      } catch (error) {
        deps.log.warn(
          { err: error, account: conn.accountId },
          `${deps.channel} backstop sweep failed; next sweep retries`,
        );
      }
    }
  }

  const heartbeat = startHeartbeat(connections, deps.slots, deps.pingIntervalMs, deps.log);
  const sweeping = periodicJob({
    name: `push${deps.channel}-sweep`,
    everyMs: deps.sweepMs,
    run: () => (connections.size ? sweep() : undefined),
  });
  sweeping.start();

  return {
    connections: connections as ReadonlySet<C>,
    shut,
    newConnectionId: () => randomUUID(),
    reserve: (principal: Principal, connectionId: string) =>
      deps.slots.acquire(principal.orgId, connectionId, principal.wsConnections),
    unreserve: (principal: Principal, connectionId: string) =>
      deps.slots.release(principal.orgId, connectionId),

    /** The common fields of a new socket's connection. */
    connectionOf(ws: WebSocket, admission: C['admission']): BaseConnection<C['admission']> {
      return {
        id: admission.connectionId,
        ws,
        accountId: admission.principal.orgId,
        admission,
        alive: true,
        closing: false,
        inbound: inboundWindow(now()),
      };
    },

    /**
     * Takes an upgraded socket in: false (and the socket closed with 1001) once the hub is shutting down.
     * Nothing is expected from the client: a message is a sign of life, counted against the inbound limit.
     */
    add(conn: C): boolean {
      const { ws } = conn;
      if (stopped) {
        deps.slots
          .release(conn.accountId, conn.id)
          .catch(logAndIgnore(deps.log, 'push: releasing a connection slot failed; its lease lapses'));
        ws.close(closeCodes.goingAway, 'server shutting down');
        return false;
      }
      connections.add(conn);
      ws.on('pong', () => {
        conn.alive = true;
      });
      ws.on('message', () => {
        conn.alive = true;
        if (countInbound(conn.inbound, now()) === 'close')
          shut(conn, closeCodes.tooManyMessages, 'too many messages');
      });
      ws.on('close', () => forget(conn));
      ws.on('error', () => ws.terminate());
      return true;
    },

    revokeTokenHash(hash: string) {
      for (const conn of connections)
        if (conn.admission.credentialKey === `token:${hash}`)
          shut(conn, closeCodes.credentialsEnded, 'token revoked');
    },

    async close() {
      stopped = true;
      const stopping = Promise.all([heartbeat.stop(), sweeping.stop()]);
      for (const conn of connections) conn.ws.terminate();
      await stopping;
    },
  };
}
