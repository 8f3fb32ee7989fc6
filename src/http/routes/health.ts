import { Type } from 'typebox';
import type { Container } from '../../app/container.ts';
import type { RouteModule } from '../types.ts';
import { asyncApiDocument } from '../../ws/asyncapi.ts';

/** Liveness, readiness, Prometheus metrics, the OpenAPI (REST) and AsyncAPI (WebSocket) documents. None needs a token. */
export function healthRoutes(container: Container): RouteModule {
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
        const checks = await container.readiness();
        const storageDown = checks.storage !== null;
        // Redis being down degrades (limits per replica) but does not make the API unready.
        const degraded = Object.values(checks).some((v) => v !== null);
        return reply
          .code(storageDown ? 503 : 200)
          .send({ status: storageDown ? 'unready' : degraded ? 'degraded' : 'ready', checks });
      },
    );

    app.get('/metrics', { config: { auth: 'none' }, schema: hide }, async (_request, reply) => {
      reply.type(container.metrics.registry.contentType);
      return container.metrics.registry.metrics();
    });

    app.get('/openapi.json', { config: { auth: 'none' }, schema: hide }, async () => app.swagger());

    const asyncApi = asyncApiDocument();
    app.get('/asyncapi.json', { config: { auth: 'none' }, schema: hide }, async () => asyncApi);
  };
}
