import type { FastifyReply, FastifyRequest } from 'fastify';
import { hostOf, normalizeOrigin } from '../credentials.ts';
import type { App } from '../types.ts';

/** Headers a browser app on another origin may read from an answer (rate limits, tracing, caching, provenance). */
const exposedHeaders = [
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'x-request-id',
  'etag',
  'meridian-normalized',
  'meridian-source',
  'meridian-as-of',
  'meridian-stale',
  'meridian-ledger-head',
  'idempotency-replayed',
].join(', ');
const allowedMethods = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const allowedHeaders = 'authorization, content-type, idempotency-key, x-request-id, if-none-match';

/**
 * Cross-origin requests (CORS): allowed for the origins the operator lists (`MERIDIAN_CORS_ORIGINS`; `*` for
 * any) and always for the server's own origin (the console it serves, recognised by `Origin`'s host equal to
 * the request's `Host`). Default: no other origin. Credentials are never shared cross-origin: the API is
 * called with a Bearer token, and the console's session cookie is SameSite and same-origin.
 *
 * Written here rather than taken from `@fastify/cors`: that plugin runs a hook on every request and copies its
 * options object twice per request, while almost no API request carries an `Origin`. Here a request without
 * one costs a property read (`Vary: Origin` is in every route's fixed headers, request-context.ts).
 */
export function corsPolicy(allowed: readonly string[]) {
  const anyOrigin = allowed.includes('*');
  const listed = new Set(allowed.map(normalizeOrigin));
  const allows = (origin: string, host: string | undefined) =>
    anyOrigin || listed.has(normalizeOrigin(origin)) || (host !== undefined && hostOf(origin) === host);

  /** The allowed origin of a cross-origin request; `undefined` for a same-origin or refused one. */
  const allowedOrigin = (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin;
    return origin !== undefined && allows(origin, request.headers.host) ? origin : undefined;
  };

  return {
    /** Lets an allowed origin read the answer; run for every request on a route (its entry hook). */
    apply(request: FastifyRequest, reply: FastifyReply): void {
      const origin = allowedOrigin(request);
      if (origin === undefined) return;
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', exposedHeaders);
    },

    /**
     * Answers preflights (`OPTIONS` on any path) of allowed origins; any other `OPTIONS` gets the not-found
     * answer. The route has no authentication: a browser sends no credentials on a preflight.
     */
    registerPreflight(app: App): void {
      app.options('*', { schema: { hide: true } }, (request, reply) => {
        if (allowedOrigin(request) === undefined) {
          reply.callNotFound();
          return;
        }
        if (request.headers['access-control-request-method'] === undefined) {
          reply.code(400).type('text/plain').send('Invalid Preflight Request');
          return;
        }
        reply
          .header('access-control-allow-methods', allowedMethods)
          .header('access-control-allow-headers', allowedHeaders)
          .header('access-control-max-age', '600')
          // Some browsers wait for a body on a 204 without a length.
          .header('content-length', '0')
          .code(204)
          .send();
      });
    },
  };
}

export type CorsPolicy = ReturnType<typeof corsPolicy>;
