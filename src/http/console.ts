import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { AppError } from '../shared/errors.ts';
import type { RouteModule } from './types.ts';

/** Where `npm run console:build` (run by `npm start` when stale) writes the web console. */
const consoleDistDir = fileURLToPath(new URL('../../console/dist/', import.meta.url));

/**
 * The console's client-side pages. Each is answered with index.html (the app routes in the browser); any
 * other unknown path stays a 404 problem document, so API clients never get HTML by mistake.
 */
const consolePages = [
  '/',
  '/sign-in',
  '/symbols/:symbol',
  '/flows',
  '/alerts',
  '/portfolio',
  '/settings',
  '/settings/keys',
  '/settings/apps',
  '/audit-log',
  '/organization',
  '/oauth/authorize',
];

/**
 * Everything the console needs comes from this origin: scripts and styles only from files (no inline code,
 * no eval), data and the push channel only from this host (`'self'` covers ws:/wss: of the same host).
 */
export const consoleCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = {
  'content-security-policy': consoleCsp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Serves the built web console at `/`: hashed files under /assets/ are immutable for a year; index.html is
 * never cached (`no-cache`: revalidated each time) so a new build is picked up on the next load.
 */
export function consoleRoutes(distDir = consoleDistDir): RouteModule {
  let indexHtml: Buffer | undefined;
  const index = () => {
    if (indexHtml) return indexHtml;
    const file = `${distDir}index.html`;
    if (!existsSync(file)) return undefined;
    indexHtml = readFileSync(file);
    return indexHtml;
  };
  const sendIndex = (reply: FastifyReply) => {
    const html = index();
    if (!html) throw new AppError('unavailable', 'the web console is not built: run `npm run console:build`');
    return reply
      .headers({ ...securityHeaders, 'cache-control': 'no-cache' })
      .type('text/html; charset=utf-8')
      .send(html);
  };

  return async (app) => {
    const page = { config: { auth: 'none' as const }, schema: { hide: true } };
    for (const path of consolePages) app.get(path, page, async (_request, reply) => sendIndex(reply));

    const assets = `${distDir}assets/`;
    if (!existsSync(assets)) return;
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      wildcard: false,
      index: false,
      decorateReply: false,
      cacheControl: false,
      etag: true,
      lastModified: false,
      // The build writes .br and .gz beside each file; the best one the client accepts is sent.
      preCompressed: true,
      setHeaders(reply: FastifyReply) {
        reply.headers({ ...securityHeaders, 'cache-control': 'public, max-age=31536000, immutable' });
      },
    });
  };
}
