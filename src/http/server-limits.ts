import { type RequestListener, type Server, type ServerOptions, createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config/env.ts';

type Limits = Pick<
  Config,
  | 'httpRequestTimeoutMs'
  | 'httpHeadersTimeoutMs'
  | 'httpKeepAliveTimeoutMs'
  | 'httpConnectionsPerAddress'
  | 'trustProxy'
>;

/** Connections per client address when MERIDIAN_HTTP_CONNECTIONS_PER_ADDRESS is unset and no proxy is trusted. */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 256;

/**
 * The HTTP server's timeouts (docs/limits.md, "Limits and timeouts"): a request, headers and body, must
 * arrive within `requestTimeout` (else 408 and the connection is closed), its headers within
 * `headersTimeout`; node checks both every `connectionsCheckingInterval`, here a quarter of the shorter.
 */
export function httpServerOptions(limits: Limits): ServerOptions {
  const headersTimeout = Math.min(limits.httpHeadersTimeoutMs, limits.httpRequestTimeoutMs);
  return {
    requestTimeout: limits.httpRequestTimeoutMs,
    headersTimeout,
    keepAliveTimeout: limits.httpKeepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/** The cap of open connections per client address: 0 for none. */
export function connectionsPerAddress(limits: Limits): number {
  if (limits.httpConnectionsPerAddress !== undefined) return limits.httpConnectionsPerAddress;
  return limits.trustProxy ? 0 : DEFAULT_CONNECTIONS_PER_ADDRESS;
}

/**
 * Closes a new connection at once when its address already holds `max` open ones, so one client cannot take
 * every file descriptor of the process while others are still served.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** An HTTP server with these timeouts and the per-address connection cap (the API's, and its start-up gate's). */
export function createLimitedServer(limits: Limits, handler?: RequestListener): Server {
  const server = createServer(httpServerOptions(limits), handler);
  capConnectionsPerAddress(server, connectionsPerAddress(limits));
  return server;
}
