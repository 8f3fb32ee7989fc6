import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '../../../modules/accounts/index.ts';
import type { SupportedSymbols } from '../../../modules/identifiers/index.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { logAndIgnore } from '../../../shared/log-and-ignore.ts';
import { startHeartbeat } from '../heartbeat.ts';
import { type Admission, createConnectionRegistry } from './connections.ts';
import { createControlHandler } from './control.ts';
import { startCredentialChecks } from './credential-checks.ts';
import { createFanout } from './fanout.ts';
import { type HubOptions, type HubStats, defaultHubOptions } from './options.ts';
import { closeCodes } from './protocol.ts';

export interface HubDeps {
  slots: ConnectionSlots;
  /** Re-checks of stored credentials. */
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
  onConnectionCountChange?(count: number): void;
  /** The supported symbol set (subscriptions to "all symbols" and symbol normalization). */
  symbols: SupportedSymbols;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => number;
}

/**
 * The per-replica push hub of `/predictions`, put together from its parts: the registry of sockets by
 * subscription and credential (connections.ts), the control protocol (control.ts), the fan-out of refreshes
 * (fanout.ts), the credential re-checks (credential-checks.ts) and the heartbeat. Inbound messages are capped
 * at 4 KB by `ws` and at `limits.controlMessagesPerWindow` per window by the control protocol.
 */
export function createPushHub(deps: HubDeps, initialOptions: HubOptions = defaultHubOptions) {
  let options = initialOptions;
  const now = deps.now ?? Date.now;
  const releaseFailed = deps.log ? logAndIgnore(deps.log, 'push slot not given back') : () => {};
  let stopped = false;
  const stats: HubStats = { frames: 0, sent: 0, preFramed: 0, slowConsumers: 0, terminated: 0, revoked: 0 };

  const registry = createConnectionRegistry({
    now,
    closeGraceMs: () => options.closeGraceMs,
    onForget(conn, count) {
      deps.onConnectionCountChange?.(count);
      deps.slots.release(conn.accountId, conn.id).catch(releaseFailed);
    },
  });
  const control = createControlHandler(registry, now, deps.symbols);
  const fanout = createFanout({
    registry,
    stats,
    options: () => options,
    stopped: () => stopped,
    log: deps.log,
  });

  const pingTimer = startHeartbeat(registry.connections, deps.slots, options.pingIntervalMs, deps.log, () => {
    stats.terminated++;
  });
  const checks = startCredentialChecks({
    registry,
    stats,
    options,
    now,
    isTokenStillValid: deps.isTokenStillValid,
    isSessionStillValid: deps.isSessionStillValid,
  });

  return {
    stats,
    get connectionCount() {
      return registry.connections.size;
    },
    get groupCount() {
      return registry.groups.size;
    },
    newConnectionId: () => randomUUID(),
    publish: fanout.publish,
    revokeTokenHash: checks.revokeTokenHash,
    /** Called when a refresh has been handed to every socket: wall ms since publish, sockets (benchmark). */
    observeFanout: fanout.observeFanout,
    /** Changes how fan-outs are written, at run time (the benchmark compares the variants). */
    tuneFanout(tuning: Partial<Pick<HubOptions, 'fanoutSliceSize' | 'preFramed'>>) {
      options = { ...options, ...tuning };
    },

    /** Takes a connection slot for the account; false when the plan's cap is reached. */
    async reserve(principal: Principal, connectionId: string) {
      return deps.slots.acquire(principal.orgId, connectionId, principal.wsConnections);
    },
    /** Gives a reserved slot back when the upgrade never completed. */
    async unreserve(principal: Principal, connectionId: string) {
      await deps.slots.release(principal.orgId, connectionId);
    },

    /** Adopts an upgraded socket. Its slot was reserved before the upgrade. */
    adopt(ws: WebSocket, admission: Admission) {
      if (stopped) {
        deps.slots.release(admission.principal.orgId, admission.connectionId).catch(releaseFailed);
        ws.close(closeCodes.goingAway, 'server shutting down');
        return;
      }
      const conn = registry.add(ws, admission);
      deps.onConnectionCountChange?.(registry.connections.size);
      ws.on('pong', () => {
        conn.alive = true;
      });
      ws.on('message', (data, isBinary) => control.onMessage(conn, data as Buffer, isBinary));
      ws.on('close', () => registry.forget(conn));
      ws.on('error', () => {
        // `ws` closes the socket after an error (e.g. 1009 for an oversize message); 'close' follows.
      });
    },

    /** Graceful shutdown: every socket gets 1001 and the grace period to answer. */
    async close() {
      stopped = true;
      await Promise.all([pingTimer.stop(), checks.stop()]);
      const closing = [...registry.connections].map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.ws.readyState === conn.ws.CLOSED) return resolve();
            conn.ws.once('close', () => resolve());
            registry.shut(conn, closeCodes.goingAway, 'server shutting down');
            // `shut` is a no-op for a socket already closing; it will close within its grace anyway.
          }),
      );
      await Promise.all(closing);
    },
  };
}

export type PushHub = ReturnType<typeof createPushHub>;
