import type { WebSocket } from 'ws';
import type { ConnectionSlots } from '../../shared/connection-slots.ts';
import { logAndIgnore, type WarnLog } from '../../shared/log-and-ignore.ts';
import { type PeriodicJob, periodicJob } from '../../shared/periodic-job.ts';

interface Beating {
  id: string;
  accountId: string;
  ws: WebSocket;
  /** Set by the socket's pong (or any message); cleared at each ping. */
  alive: boolean;
  closing: boolean;
}

/**
 * Every `intervalMs`: a socket that has not answered the previous ping is terminated, the others are pinged,
 * and the connection slots of the live ones are renewed (their leases outlive a crashed replica only briefly).
 */
export function startHeartbeat(
  connections: ReadonlySet<Beating>,
  slots: ConnectionSlots,
  intervalMs: number,
  log: WarnLog | undefined,
  onTerminated?: () => void,
): PeriodicJob {
  const renewFailed = log
    ? logAndIgnore(log, 'push: renewing connection slots failed; retried at the next heartbeat')
    : () => {};
  const heartbeat = periodicJob({
    name: 'push-heartbeat',
    everyMs: intervalMs,
    run() {
      for (const conn of connections) {
        if (conn.closing) continue;
        if (!conn.alive) {
          onTerminated?.();
          conn.ws.terminate();
          continue;
        }
        conn.alive = false;
        conn.ws.ping();
      }
      slots
        .renew([...connections].map((c) => ({ accountId: c.accountId, connectionId: c.id })))
        .catch(renewFailed);
    },
  });
  heartbeat.start();
  return heartbeat;
}
