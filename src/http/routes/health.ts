import { Type } from 'typebox';
import type { Metrics } from '../../observability/metrics.ts';
import type { RouteModule } from '../types.ts';
import type { ReadinessReport } from '../../shared/readiness.ts';
import { asyncApiDocument } from '../push/asyncapi.ts';

/** Liveness, readiness, Prometheus metrics, the OpenAPI (REST) and AsyncAPI (WebSocket) documents. None needs a token. */
export interface HealthRouteDeps {
  /** Per-component health for /readyz. */
  readiness(): Promise<ReadinessReport>;
  metrics: Pick<Metrics, 'registry'>;
}

const ComponentSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
  reason: Type.Optional(Type.String()),
  details: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()]))),
});
const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('unready')]),
  components: Type.Record(Type.String(), ComponentSchema),
  checks: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
});

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
          response: { 200: ReadinessSchema, 503: ReadinessSchema },
        },
      },
      async (_request, reply) => {
        const report = await deps.readiness();
        return reply.code(report.status === 'unready' ? 503 : 200).send(report);
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
