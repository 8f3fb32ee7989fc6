import type { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { WebSocket, WebSocketServer } from 'ws';
import type { App } from '../types.ts';
import { closeCodes, limits } from './predictions/protocol.ts';

/**
 * How `@fastify/websocket` is registered. No permessage-deflate: with ws's defaults it could not keep 1,000
 * clients at 10 messages/s here, and frames are shared bytes anyway. Inbound messages are capped at 4 KB
 * (`ws` closes with 1009 beyond).
 *
 * The plugin is registered in the WebSocket routes' own scope, not app-wide: app-wide, its request hooks and
 * the wrapper it puts around every route handler run on every REST request (about a microsecond each, a
 * measurable share of a small API answer). Upgrade requests reach it through a gate on the HTTP server:
 * those for its `paths` go to the plugin; any other is answered through the normal routes as a plain HTTP
 * request (401, 404, or the route's usual answer) and the connection is then closed.
 */
export async function registerWebSocketScope(
  app: App,
  paths: readonly string[],
  options: { refusedUpgradeTimeoutMs?: number } = {},
): Promise<void> {
  // The plugin listens for upgrades on `server` when one is given: an HTTP server that never listens stands
  // in for the real one and receives only the upgrades routed to this scope.
  const gate = createServer();
  const routes = upgradeRoutes(app, options.refusedUpgradeTimeoutMs ?? 10_000);
  for (const path of paths) routes.set(path, gate);
  await app.register(websocket, {
    options: { ...websocketServerOptions, server: gate },
    preClose: closeWebSocketsOnShutdown(),
    errorHandler: onSocketError,
  });
}

/**
 * An error on an open socket. A client breaking the protocol (a frame over the size limit, a bad opcode or
 * close code: `ws` errors with a `WS_ERR_` code, after closing with 1009/1002) is the client's mistake: one
 * warn line, no stack trace. Anything else is ours and logged as an error. Either way the socket is ended.
 */
function onSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code.startsWith('WS_ERR_'))
    request.log.warn({ code, reason: error.message }, 'push client broke the WebSocket protocol; closed');
  else request.log.error({ err: error }, 'push socket failed; closed');
  socket.terminate();
}

/** Per HTTP server: WebSocket path → the gate of the scope serving it. One `upgrade` listener routes them all. */
const upgradeRouters = new WeakMap<object, Map<string, EventEmitter>>();

function upgradeRoutes(app: App, timeoutMs: number): Map<string, EventEmitter> {
  let routes = upgradeRouters.get(app.server);
  if (routes) return routes;
  const table = new Map<string, EventEmitter>();
  routes = table;
  upgradeRouters.set(app.server, table);
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const gate = table.get(pathOf(request.url ?? '/'));
    if (gate) gate.emit('upgrade', request, socket, head);
    else answerAsHttp(app, request, socket, timeoutMs);
  });
  return table;
}

function pathOf(url: string): string {
  const path = url.split('?', 1)[0]!;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * No WebSocket endpoint here: the request is routed as plain HTTP and the connection closed after the answer,
 * or after `timeoutMs` at the latest (the HTTP server's own timeouts no longer watch this socket).
 */
function answerAsHttp(app: App, request: IncomingMessage, socket: Duplex, timeoutMs: number) {
  socket.on('error', () => socket.destroy());
  // Node hands the socket over without its HTTP parser or its timeouts: an answer that never comes would
  // otherwise hold the connection open for good.
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // An HTTP server's upgrade socket is a net.Socket (a TLSSocket under HTTPS); anything else is closed.
  if (!(socket instanceof Socket)) {
    socket.destroy();
    return;
  }
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket);
  response.once('finish', () => socket.end());
  try {
    app.routing(request, response);
  } catch {
    socket.destroy();
  }
}

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
function chooseSubprotocol(protocols: Set<string>, request: IncomingMessage): string | false {
  const chosen = chosenProtocol.get(request);
  if (chosen !== undefined) return chosen;
  const first = protocols.values().next();
  return first.done ? false : first.value;
}

const websocketServerOptions = {
  perMessageDeflate: false,
  maxPayload: limits.maxInboundBytes,
  handleProtocols: chooseSubprotocol,
  clientTracking: true,
} as const;

/** Graceful shutdown: every socket is closed with 1001; stragglers are destroyed after `graceMs`. */
function closeWebSocketsOnShutdown(graceMs = 2_000) {
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
