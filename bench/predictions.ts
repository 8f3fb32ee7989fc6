import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, printTable, startTarget, stopTarget } from './lib.ts';
import { BENCH_SYMBOLS, benchService } from './predictions-fixture.ts';

/**
 * Predictions:
 * 1. one model refresh for 7 symbols × 3 horizons (features, members, calibration, conformal quantiles,
 *    scoring of due datapoints, storage in the memory repository): median and p95 of 200 refreshes;
 * 2. GET /api/predictions (96 datapoints with quantiles, bytes prepared once per refresh): the route alone on
 *    bare Fastify and the whole app (auth, rate limit, hooks) against a bare node:http server sending the
 *    same bytes. Targets: ≤ 100 ms; ratio ≥ 0.7.
 */
export async function run(): Promise<void> {
  const { service, clock } = await benchService(400);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await service.refresh();
    times.push(performance.now() - t0);
    clock.advance(60_000);
  }
  times.sort((a, b) => a - b);
  const med = times[100]!;
  const p95 = times[190]!;
  console.log(
    `\nrefresh of ${BENCH_SYMBOLS.length} symbols × 3 horizons: median ${med.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms (target ≤ 100 ms)`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'meridian-pred-'));
  const file = join(dir, 'body.json');
  const appFile = join(dir, 'app-body.json');
  const api = await startTarget('bench/targets/predictions-server.ts', [file]);
  const full = await startTarget('bench/targets/predictions-app.ts', [appFile]);
  const raw = await startTarget('bench/targets/raw-bytes.ts', [file]);
  try {
    const [fastify, app, bare] = await compare([
      {
        name: `route on bare Fastify, no auth (${api.info.bytes} B)`,
        url: api.info.url!,
        child: api.child,
      },
      {
        name: `Meridian GET /api/predictions, auth + rate limit (${full.info.bytes} B)`,
        url: full.info.url!,
        headers: { authorization: `Bearer ${full.info.token}` },
        child: full.child,
      },
      { name: 'raw node:http, same bytes', url: raw.info.url!, child: raw.child },
    ]);
    printTable('GET /api/predictions', [fastify!, app!, bare!], bare!);
  } finally {
    await Promise.all([stopTarget(api.child), stopTarget(full.child), stopTarget(raw.child)]);
  }
}
