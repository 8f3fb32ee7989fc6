import type { onRequestHookHandler, RouteOptions } from 'fastify';
import type { Metrics } from '../../app/metrics.ts';
import type { App } from '../types.ts';

export interface RequestContextOptions {
  metrics: Metrics['http'];
  /** Writes a debug line per request (LOG_LEVEL debug or trace). */
  logEachRequest: boolean;
  /** The route's authentication guard, if it has one (see the auth plugin). */
  guardFor(route: RouteOptions): onRequestHookHandler | undefined;
}

/**
 * What every request gets from the server: the request id on the response, its route counted in the metrics,
 * and the route's authentication guard. The per-request part is attached to each route when it is
 * registered, as one hook that does all of it: each app-wide hook is another turn of Fastify's hook runner on
 * every request, and reading `request.routeOptions` builds a 12-field object per access. Requests that match
 * no route get their request id with the problem document (`sendProblem`) and are counted as `unmatched`.
 *
 * Must be registered before any plugin that adds routes, so that their routes get the hook too.
 */
export function registerRequestContext(app: App, options: RequestContextOptions): void {
  const { metrics, logEachRequest, guardFor } = options;
  app.decorateRequest('routePattern', undefined);

  app.addHook('onRoute', (route) => {
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [entryHook(route.url, guardFor(route)), ...own];
  });

  // A callback hook (not async): every request runs it, and a promise turn is measurable.
  app.addHook('onResponse', (request, reply, done) => {
    metrics
      .series(request.method, request.routePattern ?? 'unmatched', reply.statusCode)
      .record(reply.elapsedTime / 1000);
    if (logEachRequest) {
      request.log.debug(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
    done();
  });
}

function entryHook(pattern: string, guard: onRequestHookHandler | undefined): onRequestHookHandler {
  if (!guard) {
    return (request, reply, done) => {
      reply.header('x-request-id', request.id);
      request.routePattern = pattern;
      done();
    };
  }
  return function (request, reply, done) {
    reply.header('x-request-id', request.id);
    request.routePattern = pattern;
    guard.call(this, request, reply, done);
  };
}
