import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics, one registry per container so tests and several app instances never collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'meridian_http_requests_total',
      help: 'HTTP requests by route and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'meridian_http_request_duration_seconds',
      help: 'HTTP request duration by route',
      labelNames: ['route'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'meridian_rate_limited_total',
      help: 'Requests refused with 429',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    rateLimitDegraded: new Gauge({
      name: 'meridian_rate_limit_degraded',
      help: '1 while the shared rate-limit store (Redis) is unreachable and limits are enforced per replica',
      registers: [registry],
    }),
    wsConnections: new Gauge({
      name: 'meridian_ws_connections',
      help: 'Open push-channel connections',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
