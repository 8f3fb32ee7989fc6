import type { WebSocket } from 'ws';
import type { ConnectionSlots } from '../../shared/connection-slots.ts';

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
  onTerminated?: () => void,
): NodeJS.Timeout {
  const timer = setInterval(() => {
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
      .catch(() => {});
  }, intervalMs);
  timer.unref();
  return timer;
}
