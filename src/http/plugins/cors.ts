import cors from '@fastify/cors';
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
  'idempotency-replayed',
];

/**
 * Cross-origin requests (CORS, `@fastify/cors`): allowed for the origins the operator lists
 * (`MERIDIAN_CORS_ORIGINS`; `*` for any) and always for the server's own origin (the console it serves,
 * recognised by `Origin`'s host equal to the request's `Host`). Default: no other origin. Credentials are
 * never shared cross-origin: the API is called with a Bearer token, and the console's session cookie is
 * SameSite and same-origin. A request without `Origin` skips this entirely (not a CORS request).
 */
export async function registerCors(app: App, allowed: readonly string[]): Promise<void> {
  const anyOrigin = allowed.includes('*');
  const listed = new Set(allowed.map(normalizeOrigin));
  const allows = (origin: string, host: string | undefined) =>
    anyOrigin || listed.has(normalizeOrigin(origin)) || (host !== undefined && hostOf(origin) === host);
  await app.register(cors, {
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      if (origin === undefined) return callback(null, { origin: false });
      callback(null, {
        origin: allows(origin, request.headers.host) ? origin : false,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id', 'if-none-match'],
        exposedHeaders,
        credentials: false,
        maxAge: 600,
        strictPreflight: true,
      });
    },
  });
}
