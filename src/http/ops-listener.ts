import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Config } from '../config/env.ts';
import type { ReadinessReport } from '../shared/readiness.ts';
import { hostAllowList } from './plugins/host-allow-list.ts';
import { problemOf } from './problem.ts';

export interface OpsEndpoints {
  readiness(): Promise<ReadinessReport>;
  /** Prometheus text; absent, /metrics is left to `otherwise`. */
  metrics?(): Promise<{ contentType: string; text: string }>;
  /** Every other request. */
  otherwise(request: IncomingMessage, response: ServerResponse, path: string): void;
}

/**
 * /healthz, /readyz and /metrics on plain node:http, for a process that serves no Fastify app (a worker's
 * ops port) or none yet (the API port while the service starts), behind the API's Host allow-list.
 */
export function opsListener(
  config: Pick<Config, 'host' | 'allowedHosts'>,
  ops: OpsEndpoints,
): RequestListener {
  const hosts = hostAllowList(config);
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    // A rebinding page reads no readiness or metrics here either (docs/limits.md).
    const refused = hosts.refusal(req.headers.host);
    if (refused)
      return send(refused.status, 'application/problem+json', JSON.stringify(problemOf(refused, path)));
    if (req.method === 'GET' && path === '/healthz') return send(200, 'application/json', '{"status":"ok"}');
    if (req.method === 'GET' && path === '/readyz') {
      ops.readiness().then(
        (report) => send(report.status === 'unready' ? 503 : 200, 'application/json', JSON.stringify(report)),
        (error: Error) =>
          send(503, 'application/json', JSON.stringify({ status: 'unready', error: error.message })),
      );
      return;
    }
    if (req.method === 'GET' && path === '/metrics' && ops.metrics) {
      ops.metrics().then(
        ({ contentType, text }) => send(200, contentType, text),
        () => send(500, 'text/plain', 'metrics unavailable'),
      );
      return;
    }
    ops.otherwise(req, res, path);
  };
}
