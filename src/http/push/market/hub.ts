import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '../../../modules/accounts/index.ts';
import { startHeartbeat } from '../heartbeat.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { closeCodes } from '../predictions/protocol.ts';
import { logAndIgnore } from '../../../shared/log-and-ignore.ts';
import { periodicJob } from '../../../shared/periodic-job.ts';
import type { Provenance } from '../../provenance.ts';

export interface MarketHubOptions {
  /** Protocol ping period; a socket that has not answered the previous ping is terminated. */
  pingIntervalMs: number;
  /** Bytes a socket may have queued before it is closed as a slow consumer (4408). */
  maxBufferedBytes: number;
  /** Backstop period: each open socket's credential is re-checked against the store. */
  sweepMs: number;
}

export const defaultMarketHubOptions: MarketHubOptions = {
  pingIntervalMs: 30_000,
  maxBufferedBytes: 1_048_576,
  sweepMs: 5_000,
};

export interface MarketHubDeps {
  slots: ConnectionSlots;
  /** The current market-data body of every symbol (default notional); `{"data":[]}` before the first. */
  currentBody(): string;
  /**
   * The current body of a subset (`{"data":[…]}`, joined from the fragments serialized once per tick). On an
   * API replica the adopted copy: the market adopts each published snapshot before this hub hears it (both
   * follow the same bus topic, the market subscribed first).
   */
  bodyOf(symbols: readonly string[]): string;
  /** The market's provenance at this moment (the same as `Meridian-Source`, `-As-Of`, `-Stale` on REST). */
  provenance(): Provenance;
  /** The market's time (a replay's recorded time): `at` of the first frame a socket gets. */
  now(): number;
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
  log: { warn(obj: object, msg: string): void };
}

export interface MarketAdmission {
  principal: Principal;
  credentialKey: string;
  sessionSecret?: string;
  connectionId: string;
  /**
   * The symbols the socket receives, in configured order (the handshake's `symbols` and `quote`); absent:
   * every symbol.
   */
  symbols?: readonly string[];
}

/** The sockets of one subscription: one frame per snapshot for all of them. */
interface Group {
  key: string;
  /** `undefined`: every symbol (the published body as it is). */
  symbols: readonly string[] | undefined;
  connections: Set<Connection>;
  /** The body last sent to the group. */
  last: string | undefined;
  /** The body its newest sockets got on connect, one copy shared by them until the next snapshot. */
  initial: string | undefined;
}

interface Connection {
  id: string;
  ws: WebSocket;
  accountId: string;
  admission: MarketAdmission;
  group: Group;
  /** The body sent on connect, until the group's next snapshot (not sent twice when unchanged). */
  initial: string | undefined;
  alive: boolean;
  closing: boolean;
}

/**
 * A `snapshot` frame around a market-data body (`{"data":[…]}`), built by splicing strings: the body is
 * already serialized and is not parsed again. The envelope carries the provenance: `source`, `asOf` (the
 * newest update on the data's own clock) and `stale`.
 */
function snapshotFrame(body: string, atMs: number, p: Provenance): string {
  const rest = body.trimStart().slice(1);
  const asOf = p.asOf === null ? 'null' : `"${new Date(p.asOf).toISOString()}"`;
  return `{"type":"snapshot","at":"${new Date(atMs).toISOString()}","source":${JSON.stringify(p.source)},"asOf":${asOf},"stale":${p.stale},${rest}`;
}

/**
 * The per-replica `/market` fan-out. Sockets with the same subscription form a group (every symbol, the
 * default, is one group). Every snapshot the market publishes (on the bus: the worker's own, or what an API
 * replica hears through Redis) becomes one frame per group whose body changed — the published body for
 * everything, the subset's pre-serialized fragments joined for a subset — built once and sent to each socket
 * of the group. A socket therefore costs its subscription, not the universe: its group's join (shared) and
 * the send of its own frame. A new socket first gets the current snapshot of its subscription.
 */
export function createMarketHub(deps: MarketHubDeps, options: MarketHubOptions = defaultMarketHubOptions) {
  const connections = new Set<Connection>();
  const groups = new Map<string, Group>();
  let stopped = false;

  function groupOf(symbols: readonly string[] | undefined): Group {
    const key = symbols === undefined ? '*' : symbols.join(',');
    let group = groups.get(key);
    if (group === undefined) {
      group = { key, symbols, connections: new Set(), last: undefined, initial: undefined };
      groups.set(key, group);
    }
    return group;
  }

  const bodyFor = (group: Group) =>
    group.symbols === undefined ? deps.currentBody() : deps.bodyOf(group.symbols);

  function shut(conn: Connection, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    conn.ws.close(code, reason);
    setTimeout(() => conn.ws.terminate(), 5_000).unref();
  }

  function forget(conn: Connection) {
    if (!connections.delete(conn)) return;
    conn.group.connections.delete(conn);
    if (conn.group.connections.size === 0) groups.delete(conn.group.key);
    deps.slots
      .release(conn.accountId, conn.id)
      .catch(logAndIgnore(deps.log, 'push: releasing a connection slot failed; its lease lapses'));
  }

  function send(conn: Connection, frame: string) {
    if (conn.closing) return;
    if (conn.ws.bufferedAmount + frame.length > options.maxBufferedBytes) {
      shut(conn, closeCodes.slowConsumer, 'slow consumer: send buffer full');
      return;
    }
    conn.ws.send(frame);
  }

  const pingTimer = startHeartbeat(connections, deps.slots, options.pingIntervalMs, deps.log);

  const sweepJob = periodicJob({
    name: 'push-market-sweep',
    everyMs: options.sweepMs,
    run: () => (connections.size ? sweep() : undefined),
  });
  sweepJob.start();

  async function sweep() {
    for (const conn of [...connections]) {
      if (conn.closing) continue;
      try {
        if (!(await credentialValid(conn)))
          shut(conn, closeCodes.credentialsEnded, 'credentials revoked or expired');
      } catch (error) {
        deps.log.warn(
          { err: error, account: conn.accountId },
          '/market credential check failed; next sweep retries',
        );
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

    adopt(ws: WebSocket, admission: MarketAdmission) {
      if (stopped) {
        ws.close(closeCodes.goingAway, 'server shutting down');
        return;
      }
      const group = groupOf(admission.symbols);
      let initial = bodyFor(group);
      // Sockets that connect between two snapshots keep one copy of what they got, not one each.
      if (initial === group.initial) initial = group.initial;
      else group.initial = initial;
      const conn: Connection = {
        id: admission.connectionId,
        ws,
        accountId: admission.principal.userId,
        admission,
        group,
        initial,
        alive: true,
        closing: false,
      };
      connections.add(conn);
      group.connections.add(conn);
      ws.on('pong', () => {
        conn.alive = true;
      });
      // Nothing is expected from the client; anything it sends counts as a sign of life.
      ws.on('message', () => {
        conn.alive = true;
      });
      ws.on('close', () => forget(conn));
      ws.on('error', () => ws.terminate());
      send(conn, snapshotFrame(initial, deps.now(), deps.provenance()));
    },

    /**
     * A market snapshot announced on the bus: `{ body, at }` (every symbol). Each group gets a frame when its
     * body changed since the last one it was sent (a socket's first snapshot counts).
     */
    publish({ body, at }: { body: string; at: number }) {
      const frameAt = Number.isFinite(at) ? at : deps.now();
      let provenance: Provenance | undefined;
      for (const group of groups.values()) {
        const next = group.symbols === undefined ? body : deps.bodyOf(group.symbols);
        if (next === group.last) continue;
        group.last = next;
        group.initial = undefined;
        provenance ??= deps.provenance();
        const frame = snapshotFrame(next, frameAt, provenance);
        for (const conn of group.connections) {
          const initial = conn.initial;
          conn.initial = undefined;
          if (initial !== next) send(conn, frame);
        }
      }
    },

    revokeTokenHash(hash: string) {
      for (const conn of connections)
        if (conn.admission.credentialKey === `token:${hash}`)
          shut(conn, closeCodes.credentialsEnded, 'token revoked');
    },

    stats: () => ({ connections: connections.size, groups: groups.size }),

    async close() {
      stopped = true;
      const stopping = Promise.all([pingTimer.stop(), sweepJob.stop()]);
      for (const conn of connections) conn.ws.terminate();
      await stopping;
    },
  };
}

export type MarketHub = ReturnType<typeof createMarketHub>;
