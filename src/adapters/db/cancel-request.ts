import { connect } from 'node:net';

/** What the PostgreSQL cancel protocol needs to name one backend's running query. */
export interface CancelTarget {
  host: string;
  port: number;
  processID: number | null;
  secretKey: number | null;
}

/**
 * Asks the server to cancel the query a backend is running (the protocol's CancelRequest, what
 * `pg_cancel_backend` does): a short connection to the postmaster, not a session, so it takes no connection
 * slot and works while that database's backends are stuck. A stopped backend acts on it as soon as it runs
 * again. Best effort: resolves once the request is written, the connection fails, or `timeoutMs` passes.
 */
export function sendCancelRequest(target: CancelTarget, timeoutMs: number): Promise<void> {
  const { processID, secretKey } = target;
  if (processID === null || secretKey === null) return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80_877_102, 4); // the cancel request code
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = target.host.startsWith('/')
      ? connect(`${target.host}/.s.PGSQL.${target.port}`)
      : connect(target.port, target.host);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('error', done);
    socket.on('connect', () => socket.end(packet, done));
  });
}
