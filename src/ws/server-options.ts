import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { closeCodes, limits } from './predictions/protocol.ts';

/**
 * How `@fastify/websocket` is registered (server.ts). No permessage-deflate: with ws's defaults it could
 * not keep 1,000 clients at 10 messages/s here, and frames are shared bytes anyway. Inbound messages are
 * capped at 4 KB (`ws` closes with 1009 beyond).
 */

/** Per upgrade request: the subprotocol a route chose during its handshake hook (see `chooseSubprotocol`). */
const chosenProtocol = new WeakMap<IncomingMessage, string | false>();

export function setChosenSubprotocol(request: IncomingMessage, protocol: string | false): void {
  chosenProtocol.set(request, protocol);
}

/**
 * `ws` asks which offered subprotocol to answer with. A route that inspected the offer in its hook has
 * already decided (e.g. `meridian.v1`, or the token itself when that is all a browser offered); otherwise
 * the first offered one, as `ws` does by default.
 */
export function chooseSubprotocol(protocols: Set<string>, request: IncomingMessage): string | false {
  const chosen = chosenProtocol.get(request);
  if (chosen !== undefined) return chosen;
  const first = protocols.values().next();
  return first.done ? false : first.value;
}

export const websocketServerOptions = {
  perMessageDeflate: false,
  maxPayload: limits.maxInboundBytes,
  handleProtocols: chooseSubprotocol,
  clientTracking: true,
} as const;

/** Graceful shutdown: every socket is closed with 1001; stragglers are destroyed after `graceMs`. */
export function closeWebSocketsOnShutdown(graceMs = 2_000) {
  return function preClose(this: { websocketServer: WebSocketServer }, done: () => void) {
    const server = this.websocketServer;
    const open = [...server.clients];
    const closed = open.map(
      (ws: WebSocket) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close(closeCodes.goingAway, 'server shutting down');
        }),
    );
    const timer = setTimeout(() => {
      for (const ws of open) ws.terminate();
    }, graceMs);
    timer.unref();
    void Promise.all(closed).then(() => {
      clearTimeout(timer);
      server.close(() => done());
    });
  };
}
