import type { FastifyReply } from 'fastify';

/**
 * Headers every answer carries. The API answers JSON only, so the default policy forbids everything a
 * browser could do with a response (load resources, run scripts, frame it). `/docs` (Swagger UI) sends its
 * own, narrower policy (hashes of its inline scripts and styles, set by @fastify/swagger-ui's `staticCSP`);
 * an HTML page elsewhere (the console) sets its own `content-security-policy` in its handler, which
 * replaces this one.
 */
const common: ReadonlyArray<readonly [string, string]> = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
];

/** Answers about credentials (the account, its tokens, sign-in) must never be stored by a cache. */
const noStore: ReadonlyArray<readonly [string, string]> = [...common, ['cache-control', 'no-store']];

/** Whether a route's answers carry account or token data (so `Cache-Control: no-store`). */
const isCredentialRoute = (pattern: string) =>
  pattern === '/api/account' || pattern.startsWith('/api/account/') || pattern.startsWith('/auth/');

/** The header set of a route, chosen once when the route is registered. */
export function securityHeadersFor(pattern: string | undefined): ReadonlyArray<readonly [string, string]> {
  return pattern !== undefined && isCredentialRoute(pattern) ? noStore : common;
}

export function setSecurityHeaders(reply: FastifyReply, headers = common): void {
  for (const [name, value] of headers) reply.header(name, value);
}

/** The same headers as raw HTTP header lines (for answers written to the socket directly). */
export const securityHeaderLines = common.map(([name, value]) => `${name}: ${value}\r\n`).join('');
