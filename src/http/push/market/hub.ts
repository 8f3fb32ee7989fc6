import type { WebSocket } from 'ws';
import { type BaseAdmission, type BaseConnection, createHubBase } from '../hub-base.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { closeCodes } from '../predictions/protocol.ts';
import type { Provenance } from '../../provenance.ts';
import type { DerivativesUpdate } from '../../../modules/derivatives/index.ts';

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

export interface MarketAdmission extends BaseAdmission {
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

interface Connection extends BaseConnection<MarketAdmission> {
  group: Group;
  /** The body sent on connect, until the group's next snapshot (not sent twice when unchanged). */
  initial: string | undefined;
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
  const groups = new Map<string, Group>();
  const base = createHubBase<Connection>({
    channel: '/market',
    slots: deps.slots,
    isTokenStillValid: deps.isTokenStillValid,
    isSessionStillValid: deps.isSessionStillValid,
    log: deps.log,
    pingIntervalMs: options.pingIntervalMs,
    sweepMs: options.sweepMs,
    onForget(conn) {
      conn.group.connections.delete(conn);
      if (conn.group.connections.size === 0) groups.delete(conn.group.key);
    },
  });
  const { shut } = base;

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

  function send(conn: Connection, frame: string) {
    if (conn.closing) return;
    if (conn.ws.bufferedAmount + frame.length > options.maxBufferedBytes) {
      shut(conn, closeCodes.slowConsumer, 'slow consumer: send buffer full');
      return;
    }
    conn.ws.send(frame);
  }

  return {
    newConnectionId: base.newConnectionId,
    reserve: base.reserve,
    unreserve: base.unreserve,

    adopt(ws: WebSocket, admission: MarketAdmission) {
      const group = groupOf(admission.symbols);
      let initial = bodyFor(group);
      // Sockets that connect between two snapshots keep one copy of what they got, not one each.
      if (initial === group.initial) initial = group.initial;
      else group.initial = initial;
      const conn: Connection = { ...base.connectionOf(ws, admission), group, initial };
      if (!base.add(conn)) return;
      group.connections.add(conn);
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

    /**
     * A derivatives update (bus): each group gets one `derivatives` frame with its symbols' items and
     * liquidation events (every symbol's for the default group); a group none of whose symbols changed gets none.
     */
    publishDerivatives(update: DerivativesUpdate) {
      for (const group of groups.values()) {
        const wanted = group.symbols && new Set(group.symbols);
        const items = wanted ? update.items.filter((i) => wanted.has(i.symbol)) : update.items;
        const liquidations = wanted
          ? update.liquidations.filter((l) => wanted.has(l.symbol))
          : update.liquidations;
        if (items.length === 0 && liquidations.length === 0) continue;
        const frame = JSON.stringify({
          type: 'derivatives',
          at: new Date(update.at).toISOString(),
          source: update.source,
          simulated: update.simulated,
          data: items,
          liquidations,
        });
        for (const conn of group.connections) send(conn, frame);
      }
    },

    revokeTokenHash: base.revokeTokenHash,

    stats: () => ({ connections: base.connections.size, groups: groups.size }),

    close: base.close,
  };
}

export type MarketHub = ReturnType<typeof createMarketHub>;
