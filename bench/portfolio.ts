import autocannon from 'autocannon';
import { createUsageCounter, createMemoryUsageRepository } from '../src/modules/usage/index.ts';
import { captureResponse, compare, printTable, startTarget, stopTarget } from './lib.ts';

/**
 * Portfolio and dashboard analytics, against the real app (embedded storage in memory) in its own process:
 * 1. GET /api/dashboard/analytics (account with 20 rows) against a bare node:http server returning the same
 *    response bytes, alternated (`compare`). Target: ≥ 0.5 of raw.
 * 2. POST /api/portfolio/import with 200-row JSON and CSV bodies (every request stores 200 new rows):
 *    requests/s, rows/s and latency percentiles.
 * 3. The per-request cost of the usage counter (`record`), in nanoseconds, in this process.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

const assets = ['BTC', 'ETH', 'SOL', 'USDC', 'LTC'];
const jsonBody = (n: number) =>
  JSON.stringify({
    rows: Array.from({ length: n }, (_, i) => ({
      asset: assets[i % assets.length],
      quantity: `0.${String(i + 1).padStart(6, '0')}12345678901`,
      costBasis: `${100 + i}.25`,
      acquiredAt: '2024-03-01T12:00:00Z',
      venue: 'kraken',
      note: `lot ${i}`,
    })),
  });
const csvBody = (n: number) =>
  `Currency,Amount,Cost Basis (USD),Date,Exchange,Notes\n${Array.from(
    { length: n },
    (_, i) =>
      `${assets[i % assets.length]},0.${String(i + 1).padStart(6, '0')}12345678901,${100 + i}.25,2024-03-01 12:00:00 UTC,kraken,"lot ${i}, csv"`,
  ).join('\n')}\n`;

async function importLoad(url: string, token: string, body: string, contentType: string) {
  const result = await autocannon({
    url: `${url}/api/portfolio/import`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
    connections: 4,
    duration: seconds,
  });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

function usageRecordCost(): number {
  const counter = createUsageCounter({
    repo: createMemoryUsageRepository(),
    clock: { now: () => Date.now() },
    flushMs: 60_000,
  });
  const accounts = Array.from({ length: 100 }, (_, i) => `usr_${i}`);
  const routes = ['/api/market-data', '/api/predictions', '/api/portfolio', '/api/account'];
  const n = 2_000_000;
  for (let i = 0; i < 200_000; i++) counter.record(accounts[i % 100]!, 'tok_1', 'GET', routes[i % 4]!, false);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    counter.record(accounts[i % 100]!, 'tok_1', 'GET', routes[i % 4]!, i % 50 === 0);
  return Number(process.hrtime.bigint() - start) / n;
}

export async function run() {
  // 1. analytics against raw: as configured by default (an account's answer reused for 1 s), and computed on
  // every request (MERIDIAN_ANALYTICS_CACHE_MS=0) — the work itself.
  for (const [label, env] of [
    ['default: answer reused for 1 s', {}],
    ['cache off: computed every request', { MERIDIAN_ANALYTICS_CACHE_MS: '0' }],
  ] as const) {
    const api = await startTarget('bench/targets/api-server.ts', [], env);
    const headers = { authorization: `Bearer ${api.info.token}` };
    const seeded = await fetch(`${api.info.url}/api/portfolio/import`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: jsonBody(20),
    });
    if (seeded.status !== 201)
      throw new Error(`seeding the portfolio failed: ${seeded.status} ${await seeded.text()}`);
    const sample = await captureResponse(`${api.info.url}/api/dashboard/analytics`, headers, 'analytics');
    const raw = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile, sample.headersFile]);
    try {
      const [baseline, app] = await compare([
        {
          name: `raw node:http, same response bytes (${sample.body.length} B body)`,
          url: raw.info.url!,
          child: raw.child,
        },
        {
          name: `Meridian GET /api/dashboard/analytics (${label})`,
          url: `${api.info.url}/api/dashboard/analytics`,
          headers,
          child: api.child,
        },
      ]);
      printTable(`Dashboard analytics — ${label}`, [baseline!, app!], baseline!);
      console.log(
        `\nratio to raw: ${(app!.requestsPerSec / baseline!.requestsPerSec).toFixed(2)} (target ≥ 0.5)`,
      );
    } finally {
      await Promise.all([stopTarget(api.child), stopTarget(raw.child)]);
    }
  }

  // 2. imports, on a fresh server
  const importer = await startTarget('bench/targets/api-server.ts', []);
  try {
    const json = await importLoad(
      importer.info.url!,
      importer.info.token!,
      jsonBody(200),
      'application/json',
    );
    const csv = await importLoad(importer.info.url!, importer.info.token!, csvBody(200), 'text/csv');
    console.log(`\nPOST /api/portfolio/import, 200 rows per request, 4 connections, ${seconds} s each`);
    console.log('| body | req/s | rows/s | p50 ms | p99 ms | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, r] of [
      [`JSON (${Buffer.byteLength(jsonBody(200))} B)`, json],
      [`CSV (${Buffer.byteLength(csvBody(200))} B)`, csv],
    ] as const) {
      console.log(
        `| ${name} | ${r.requestsPerSec} | ${r.requestsPerSec * 200} | ${r.p50} | ${r.p99} | ${r.non2xx} |`,
      );
    }
  } finally {
    await stopTarget(importer.child);
  }

  // 3. the usage counter on the request path
  console.log(
    `\nusage counter: ${usageRecordCost().toFixed(0)} ns per recorded request (100 accounts × 4 routes)`,
  );
}
