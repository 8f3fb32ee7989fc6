import { captureResponse, compare, printTable, startTarget, stopTarget } from './lib.ts';

/**
 * Authenticated GET /api/account (token lookup, permission check, rate-limit charge and headers, request id)
 * against a bare node:http server returning the same response bytes (headers included; see
 * `captureResponse`), measured in alternation in the same run. For reference: the raw server with the body
 * alone (without the request-id and rate-limit headers), and bare Fastify with the same response. Target:
 * ratio ≥ 0.7 of raw.
 */
export async function run() {
  const api = await startTarget('bench/targets/api-server.ts', []);
  const headers = { authorization: `Bearer ${api.info.token}` };
  const sample = await captureResponse(`${api.info.url}/api/account`, headers, 'account');
  const raw = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile, sample.headersFile]);
  const rawBody = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile]);
  const bare = await startTarget('bench/targets/fastify-bytes.ts', [sample.bodyFile, sample.headersFile]);
  try {
    const [baseline, bodyOnly, fastify, app] = await compare([
      { name: 'raw node:http, same response bytes', url: raw.info.url!, child: raw.child },
      { name: 'raw node:http, body only (reference)', url: rawBody.info.url!, child: rawBody.child },
      { name: 'bare Fastify, same response bytes', url: bare.info.url!, child: bare.child },
      { name: 'Meridian GET /api/account', url: `${api.info.url}/api/account`, headers, child: api.child },
    ]);
    printTable('Account endpoint', [baseline!, bodyOnly!, fastify!, app!], baseline!);
    return { ratio: app!.requestsPerSec / baseline!.requestsPerSec };
  } finally {
    await Promise.all([api, raw, rawBody, bare].map((t) => stopTarget(t.child)));
  }
}
