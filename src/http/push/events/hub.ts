import type { WebSocket } from 'ws';
import type { AccountEvent, EventsRepository } from '../../../modules/events/index.ts';
import { type BaseAdmission, type BaseConnection, createHubBase } from '../hub-base.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { closeCodes } from '../predictions/protocol.ts';

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

export interface EventsAdmission extends BaseAdmission {
  /** Events with a greater `seq` are sent: the `after` cursor's, or the account's latest at the handshake. */
  afterSeq: number;
}

interface Connection extends BaseConnection<EventsAdmission> {
  lastSeq: number;
  /** Reading the log: live events wait in `held` until the replay has caught up. */
  replaying: boolean;
  held: AccountEvent[];
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
  const base = createHubBase<Connection>({
    channel: '/events',
    slots: deps.slots,
    isTokenStillValid: deps.isTokenStillValid,
    isSessionStillValid: deps.isSessionStillValid,
    log: deps.log,
    pingIntervalMs: options.pingIntervalMs,
    sweepMs: options.sweepMs,
    // The backstop: the log is read again, so a lost bus message is caught within a sweep.
    afterCheck: (conn) => catchUp(conn),
    skipSweep: (conn) => conn.replaying,
    onForget(conn) {
      const set = byAccount.get(conn.accountId);
      set?.delete(conn);
      if (set && !set.size) byAccount.delete(conn.accountId);
    },
  });
  const { shut } = base;

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

  return {
    newConnectionId: base.newConnectionId,
    reserve: base.reserve,
    unreserve: base.unreserve,

    adopt(ws: WebSocket, admission: EventsAdmission) {
      const conn: Connection = {
        ...base.connectionOf(ws, admission),
        lastSeq: admission.afterSeq,
        replaying: false,
        held: [],
      };
      if (!base.add(conn)) return;
      let set = byAccount.get(conn.accountId);
      if (!set) {
        set = new Set();
        byAccount.set(conn.accountId, set);
      }
      set.add(conn);
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

    revokeTokenHash: base.revokeTokenHash,

    stats: () => ({ connections: base.connections.size, accounts: byAccount.size }),

    close: base.close,
  };
}

export type EventsHub = ReturnType<typeof createEventsHub>;
