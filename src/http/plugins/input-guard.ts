import type { FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { ProblemDetail } from '../../shared/errors.ts';
import { validationError } from '../../shared/errors.ts';
import type { App } from '../types.ts';

/**
 * Two kinds of input that pass schema validation but must not reach a handler, refused before validation with
 * a pointer to each offending value:
 * - U+0000 in any string: PostgreSQL cannot store it in text or jsonb, so it would otherwise surface as a 500
 *   from the database;
 * - numbers that are not finite: Ajv coerces the query text `Infinity` or `1e400` to Infinity and then skips
 *   `minimum`/`maximum` (they only run on finite numbers), and JSON.parse reads `1e400` in a body as Infinity.
 *   A query value that reads as an infinite number is refused wherever it appears.
 * Attached to each route that can receive input at all (a query, body or path schema, a path parameter or
 * wildcard, or a method with a body) when it is registered; a plain GET such as `/api/account` skips it.
 * A route without a body (GET, HEAD) is checked in the `onRequest` phase, after the route's authentication
 * hook (so a missing token is still a 401 first): it then has no `preValidation` phase at all, one turn of
 * Fastify's hook runner less per request. A query string seen clean before is not walked again (up to 1,000
 * distinct ones; the busiest GETs repeat a handful).
 */
export function registerInputGuard(app: App) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    const methods = [route.method].flat();
    const bodiless = methods.every((m) => m === 'GET' || m === 'HEAD');
    const takesInput =
      schema.querystring !== undefined ||
      schema.body !== undefined ||
      schema.params !== undefined ||
      /[:*]/.test(route.url) ||
      !bodiless;
    if (!takesInput) return;
    if (bodiless) {
      const own = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...own, guardQuery];
      return;
    }
    const own = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [guardInput, ...own];
  });
}

/** Query strings (the URL after `?`) that passed the guard: the answer depends on the text alone. */
const cleanQueries = new Set<string>();

/** The guard of a route without a body: the path and the query. */
const guardQuery: onRequestHookHandler = (request, _reply, done) => {
  const url = request.url;
  const at = url.indexOf('?');
  const nulInUrl = url.includes('%00');
  if (!nulInUrl && (at < 0 || cleanQueries.has(url.slice(at + 1)))) return done();
  const problems = inputProblems(request, nulInUrl);
  if (problems.length) return done(validationError(problems));
  if (!nulInUrl && cleanQueries.size < 1_000) cleanQueries.add(url.slice(at + 1));
  done();
};

const guardInput: preValidationHookHandler = (request, _reply, done) => {
  const problems = inputProblems(request, request.url.includes('%00'));
  done(problems.length ? validationError(problems) : undefined);
};

function inputProblems(request: FastifyRequest, nulInUrl: boolean): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  if (nulInUrl) scan(request.params, '/path', problems);
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      for (const text of Array.isArray(value) ? value : [value]) {
        if (typeof text !== 'string') continue;
        if (nulInUrl && text.includes('\u0000')) problems.push(nulProblem(`/query/${key}`));
        else if (readsAsInfinite(text)) problems.push(infiniteProblem(`/query/${key}`));
      }
    }
  }
  if (request.body !== undefined && request.body !== null) scan(request.body, '/body', problems);
  return problems;
}

const nulProblem = (pointer: string): ProblemDetail => ({
  pointer,
  message: 'must not contain the NUL character (U+0000)',
});
const infiniteProblem = (pointer: string): ProblemDetail => ({ pointer, message: 'must be a finite number' });

function readsAsInfinite(text: string): boolean {
  // The same test Ajv's coercion applies (`text == +text`), then the finiteness it forgets.
  const n = +text;
  return text.trim() !== '' && (n === Number.POSITIVE_INFINITY || n === Number.NEGATIVE_INFINITY);
}

/** Walks a parsed value, noting every string with U+0000 and every non-finite number, by JSON pointer. */
function scan(value: unknown, pointer: string, problems: ProblemDetail[], depth = 0): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) problems.push(nulProblem(pointer));
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) problems.push(infiniteProblem(pointer));
  } else if (value && typeof value === 'object' && depth < 32) {
    for (const [key, item] of Object.entries(value)) {
      scan(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, problems, depth + 1);
    }
  }
}
