import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '../../../modules/accounts/index.ts';
import type { AccountEvent, EventsRepository } from '../../../modules/events/index.ts';
import { startHeartbeat } from '../heartbeat.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { closeCodes } from '../predictions/protocol.ts';
import { logAndIgnore } from '../../../shared/log-and-ignore.ts';
import { periodicJob } from '../../../shared/periodic-job.ts';

export interface EventsHubOptions {
  /** Protocol ping period; a socket that has not answered the previous ping is terminated. */
  pingIntervalMs: number;
  /** Bytes a socket may have queued before it is closed as a slow consumer (4408). */
  maxBufferedBytes: number;
  /**
   * Backstop period: each account with open sockets is read from the log again (a lost bus message is caught
   * within this) and each credential is re-checked against the store.
   */
  sweepMs: number;
  /** Events read per query while replaying. */
  replayBatch: number;
}

export const defaultEventsHubOptions: EventsHubOptions = {
  pingIntervalMs: 30_000,
  maxBufferedBytes: 1_048_576,
  sweepMs: 5_000,
  replayBatch: 500,
};

export interface EventsHubDeps {
  events: Pick<EventsRepository, 'listForAccount'>;
  slots: ConnectionSlots;
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
  log: { warn(obj: object, msg: string): void };
}

export interface EventsAdmission {
  principal: Principal;
  credentialKey: string;
  sessionSecret?: string;
  connectionId: string;
  /** Events with a greater `seq` are sent: the `after` cursor's, or the account's latest at the handshake. */
  afterSeq: number;
}

interface Connection {
  id: string;
  ws: WebSocket;
  accountId: string;
  admission: EventsAdmission;
  lastSeq: number;
  /** Reading the log: live events wait in `held` until the replay has caught up. */
  replaying: boolean;
  held: AccountEvent[];
  alive: boolean;
  closing: boolean;
}

/**
 * Whether an event goes on the stream: every event of the account, unless its rule opted out of the stream
 * (`channels.events: false`).
 */
export function streamed(event: AccountEvent): boolean {
  try {
    const body = JSON.parse(event.body) as { data?: { rule?: { channels?: { events?: unknown } } } };
    return body.data?.rule?.channels?.events !== false;
  } catch {
    return true;
  }
}

/**
 * The per-replica `/events` fan-out. A socket first replays the account's log after its cursor, then follows
 * the bus (every replica hears every event through Redis in scaled mode); a periodic read of the log catches
 * what a lost bus message would have missed. Events go out in `seq` order, each once per socket.
 */
export function createEventsHub(deps: EventsHubDeps, options: EventsHubOptions = defaultEventsHubOptions) {
  const byAccount = new Map<string, Set<Connection>>();
  const connections = new Set<Connection>();
  let stopped = false;

  function shut(conn: Connection, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    conn.ws.close(code, reason);
    setTimeout(() => conn.ws.terminate(), 5_000).unref();
  }

  function forget(conn: Connection) {
    if (!connections.delete(conn)) return;
    const set = byAccount.get(conn.accountId);
    set?.delete(conn);
    if (set && !set.size) byAccount.delete(conn.accountId);
    deps.slots.release(conn.accountId, conn.id).catch(logAndIgnore(deps.log, 'push slot not given back'));
  }

  function deliver(conn: Connection, event: AccountEvent) {
    if (event.seq <= conn.lastSeq || conn.closing) return;
    conn.lastSeq = event.seq;
    if (!streamed(event)) return;
    if (conn.ws.bufferedAmount + event.body.length > options.maxBufferedBytes) {
      shut(conn, closeCodes.slowConsumer, 'slow consumer: send buffer full');
      return;
    }
    conn.ws.send(event.body);
  }

  /** Sends the log after the socket's cursor, then what arrived live meanwhile. */
  async function catchUp(conn: Connection) {
    conn.replaying = true;
    try {
      for (;;) {
        const batch = await deps.events.listForAccount(conn.accountId, conn.lastSeq, options.replayBatch);
        for (const event of batch) deliver(conn, event);
        if (batch.length < options.replayBatch || conn.closing) break;
      }
    } finally {
      conn.replaying = false;
      const held = conn.held.sort((a, b) => a.seq - b.seq);
      conn.held = [];
      for (const event of held) deliver(conn, event);
    }
  }

  const pingTimer = startHeartbeat(connections, deps.slots, options.pingIntervalMs, deps.log);

  const sweepJob = periodicJob({
    name: 'push-events-sweep',
    everyMs: options.sweepMs,
    run: () => (connections.size ? sweep() : undefined),
  });
  sweepJob.start();

  async function sweep() {
    for (const conns of [...byAccount.values()]) {
      for (const conn of conns) {
        if (conn.replaying || conn.closing) continue;
        try {
          if (!(await credentialValid(conn))) {
            shut(conn, closeCodes.credentialsEnded, 'credentials revoked or expired');
            continue;
          }
          await catchUp(conn);
        } catch (error) {
          deps.log.warn(
            { err: error, account: conn.accountId },
            '/events backstop read failed; next sweep retries',
          );
        }
      }
    }
  }

  async function credentialValid(conn: Connection): Promise<boolean> {
    const { principal, sessionSecret } = conn.admission;
    if (principal.tokenExpiresAt && principal.tokenExpiresAt <= Date.now()) return false;
    if (principal.kind === 'token' && principal.tokenId) return deps.isTokenStillValid(principal.tokenId);
    if (sessionSecret) return deps.isSessionStillValid(sessionSecret);
    return true;
  }

  return {
    newConnectionId: () => randomUUID(),
    reserve: (principal: Principal, connectionId: string) =>
      deps.slots.acquire(principal.userId, connectionId, principal.wsConnections),
    unreserve: (principal: Principal, connectionId: string) =>
      deps.slots.release(principal.userId, connectionId),

    adopt(ws: WebSocket, admission: EventsAdmission) {
      const conn: Connection = {
        id: admission.connectionId,
        ws,
        accountId: admission.principal.userId,
        admission,
        lastSeq: admission.afterSeq,
        replaying: false,
        held: [],
        alive: true,
        closing: false,
      };
      if (stopped) {
        ws.close(closeCodes.goingAway, 'server shutting down');
        return;
      }
      connections.add(conn);
      let set = byAccount.get(conn.accountId);
      if (!set) {
        set = new Set();
        byAccount.set(conn.accountId, set);
      }
      set.add(conn);
      ws.on('pong', () => {
        conn.alive = true;
      });
      // Nothing is expected from the client; anything it sends counts as a sign of life.
      ws.on('message', () => {
        conn.alive = true;
      });
      ws.on('close', () => forget(conn));
      ws.on('error', () => ws.terminate());
      catchUp(conn).catch((error) => {
        deps.log.warn(
          { err: error, account: conn.accountId },
          '/events replay failed; closing so the client resumes',
        );
        shut(conn, closeCodes.internalError, 'replay failed; reconnect with after');
      });
    },

    /** An event announced on the bus (after its transaction committed). */
    publish(event: AccountEvent) {
      const conns = byAccount.get(event.accountId);
      if (!conns) return;
      for (const conn of conns) {
        if (conn.replaying) conn.held.push(event);
        else deliver(conn, event);
      }
    },

    revokeTokenHash(hash: string) {
      for (const conn of connections)
        if (conn.admission.credentialKey === `token:${hash}`)
          shut(conn, closeCodes.credentialsEnded, 'token revoked');
    },

    stats: () => ({ connections: connections.size, accounts: byAccount.size }),

    async close() {
      stopped = true;
      const stopping = Promise.all([pingTimer.stop(), sweepJob.stop()]);
      for (const conn of connections) conn.ws.terminate();
      await stopping;
    },
  };
}

export type EventsHub = ReturnType<typeof createEventsHub>;
