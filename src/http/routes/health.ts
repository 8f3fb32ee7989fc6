import { Type } from 'typebox';
import type { Metrics } from '../../observability/metrics.ts';
import type { RouteModule } from '../types.ts';
import { asyncApiDocument } from '../push/asyncapi.ts';

/** Liveness, readiness, Prometheus metrics, the OpenAPI (REST) and AsyncAPI (WebSocket) documents. None needs a token. */
export interface HealthRouteDeps {
  /** Checks for /readyz: name → error text, or null when fine. */
  readiness(): Promise<Record<string, string | null>>;
  metrics: Pick<Metrics, 'registry'>;
}

export function healthRoutes(deps: HealthRouteDeps): RouteModule {
  return async (app) => {
    const hide = { hide: true };
    app.get('/healthz', { config: { auth: 'none' }, schema: { ...hide } }, async () => ({ status: 'ok' }));

    app.get(
      '/readyz',
      {
        config: { auth: 'none' },
        schema: {
          ...hide,
          response: {
            200: Type.Object({
              status: Type.String(),
              checks: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
            }),
            503: Type.Object({
              status: Type.String(),
              checks: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
            }),
          },
        },
      },
      async (_request, reply) => {
        const checks = await deps.readiness();
        const storageDown = checks.storage !== null;
        // Redis being down degrades (limits per replica) but does not make the API unready.
        const degraded = Object.values(checks).some((v) => v !== null);
        return reply
          .code(storageDown ? 503 : 200)
          .send({ status: storageDown ? 'unready' : degraded ? 'degraded' : 'ready', checks });
      },
    );

    app.get('/metrics', { config: { auth: 'none' }, schema: hide }, async (_request, reply) => {
      reply.type(deps.metrics.registry.contentType);
      return deps.metrics.registry.metrics();
    });

    app.get('/openapi.json', { config: { auth: 'none' }, schema: hide }, async () => app.swagger());

    const asyncApi = asyncApiDocument();
    app.get('/asyncapi.json', { config: { auth: 'none' }, schema: hide }, async () => asyncApi);
  };
}
