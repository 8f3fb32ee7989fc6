import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config/env.ts';
import { summarize } from '../shared/readiness.ts';
import { AppError } from '../shared/errors.ts';
import { opsListener } from './ops-listener.ts';
import { answerClientError, clientErrorAnswer, problemOf } from './problem.ts';
import { requestIdOf } from './request-id.ts';
import { createLimitedServer } from './server-limits.ts';
import { securityHeadersFor } from './security-headers.ts';

/** Seconds a client is asked to wait (`Retry-After`) while the service starts. */
const RETRY_AFTER_SECONDS = 2;

export interface StartupGate {
  /** The listening server: the API's port from the first second of a start. */
  readonly server: Server;
  /** What the process is doing now, as /readyz and every refused request name it. */
  phase(text: string): void;
  /** The server the API is built on: it never listens; the gate hands it every request once `open`. */
  inner(handler: RequestListener): Server;
  /** From now on requests and WebSocket upgrades go to the API. */
  open(): void;
  /** Stops accepting connections; idle ones close at once, busy ones after their answer. */
  close(): Promise<void>;
}

/**
 * The API port while the service starts (storage opening, migrations, the jobs' first work): /healthz 200,
 * /readyz 503 naming the phase, every other request (and upgrade) 503 problem+json with Retry-After.
 * Listening first means a port that answers within a second, whatever the universe or history size.
 */
export function startupGate(config: Config): StartupGate {
  let phase = 'starting';
  let api: Server | undefined;
  let opened = false;
  const starting = () => new AppError('unavailable', `the service is starting (${phase}); retry shortly`);
  const whileStarting = opsListener(config, {
    readiness: async () =>
      summarize({ startup: { status: 'down', reason: `starting: ${phase}`, expected: true } }, true),
    otherwise(req, res, path) {
      const requestId = requestIdOf(req);
      const body = JSON.stringify(problemOf(starting(), path, requestId));
      res.writeHead(503, {
        'x-request-id': requestId,
        'content-type': 'application/problem+json',
        'retry-after': String(RETRY_AFTER_SECONDS),
        'cache-control': 'no-store',
        ...Object.fromEntries(securityHeadersFor(undefined)),
      });
      res.end(body);
    },
  });
  const server = createLimitedServer(config, (req, res) => {
    if (opened && api) api.emit('request', req, res);
    else whileStarting(req, res);
  });
  server.on('clientError', answerClientError);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (opened && api) return void api.emit('upgrade', req, socket, head);
    socket.on('error', () => socket.destroy());
    socket.end(clientErrorAnswer('unavailable', starting().message, requestIdOf(req)));
  });
  return {
    server,
    phase(text) {
      phase = text;
    },
    inner(handler) {
      api = createServer(handler);
      return api;
    },
    open() {
      opened = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
