import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatorName } from './generator.ts';
import {
  type LoadResult,
  type LoadTarget,
  captureResponse,
  compare,
  connections,
  printTable,
  startTarget,
  stopTarget,
} from './lib.ts';
import { type Started, serverProcess, startServed, stopServed, waitReady } from './npm-start.ts';
import { seedPredictionRecord } from './pipeline-seed.ts';
import { placementLabel } from './placement.ts';

/**
 * The one request pipeline, measured the way users start the server: `npm start` on a fresh embedded data
 * folder (simulated market, background jobs on), after `/readyz` and a settling period, unpinned — against a
 * raw node:http server replaying the exact response bytes, alternated in the same run (`compare`). Endpoints:
 * `GET /api/account` with a bearer token and the default predictions page (96 datapoints). A fresh server
 * publishes no forecast before its model's first fit, so each data folder starts with a day of stored
 * forecasts (`pipeline-seed.ts`), as a server restarted after running a day would; a page of fewer than 96
 * datapoints fails the run rather than measuring a different body.
 * Targets: ≥ 0.5 of raw's throughput, p99 ≤ 2 × raw's. Results go to bench/results/pipeline.json.
 *
 * `BENCH_PIPELINE_COMPARE` adds other servers to the same alternation, as JSON:
 * `[{"label": "before", "checkout": "/tmp/before", "env": {"NAME": "value"}}]` (a checkout of Meridian with
 * its own build and `node_modules`; `env` optional). `BENCH_SETTLE_SECONDS` (default 60) is the wait after
 * ready; `BENCH_ROUNDS`, `BENCH_SECONDS` and `BENCH_WARMUP_SECONDS` as for every bench (lib.ts).
 */
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
const targetRatio = 0.5;
const targetP99Factor = 2;

interface Other {
  label: string;
  checkout?: string;
  env?: Record<string, string>;
}

function othersToCompare(): Other[] {
  const text = process.env.BENCH_PIPELINE_COMPARE?.trim();
  if (!text) return [];
  const others = JSON.parse(text) as Other[];
  for (const o of others) {
    if (o.checkout && !existsSync(join(o.checkout, 'package.json')))
      throw new Error(`BENCH_PIPELINE_COMPARE: ${o.checkout} is not a checkout of Meridian`);
  }
  return others;
}

const endpoints = [
  { name: 'GET /api/account', path: '/api/account' },
  { name: 'GET /api/predictions (96 points)', path: '/api/predictions?symbol=BTCUSDT&horizon=1h' },
];

/** The machine's load averages (an object: the results file stays as biome formats it). */
const loadNow = () => {
  const [oneMinute, fiveMinutes, fifteenMinutes] = loadavg().map((v) => Math.round(v * 100) / 100);
  return { oneMinute, fiveMinutes, fifteenMinutes };
};

export async function run() {
  // Measured as users run it: the kernel places every thread (placement.ts).
  process.env.BENCH_PIN ??= '0';
  const others = othersToCompare();
  const servers: Array<Started & { label: string; dataDir: string }> = [];
  const loadAtStart = loadNow();
  try {
    // One after the other: two start-ups at once would each slow the other's.
    for (const spec of [{ label: 'Meridian (npm start)' } as Other, ...others]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'meridian-pipeline-'));
      // Another checkout's schema may differ: its folder starts empty and its page is whatever it serves.
      if (!spec.checkout) await seedPredictionRecord(dataDir);
      const started = await startServed(dataDir, spec.env, spec.checkout);
      servers.push({ ...started, label: spec.label, dataDir });
      await waitReady(started.url);
    }
    console.log(`\n${servers.length} server(s) ready; settling ${settleSeconds} s before measuring`);
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));

    const measured = [];
    for (const endpoint of endpoints) {
      const [own] = servers;
      const sample = await captureResponse(
        `${own!.url}${endpoint.path}`,
        { authorization: `Bearer ${own!.token}` },
        `pipeline-${endpoint.path.replace(/\W+/g, '-')}`,
      );
      const points = endpoint.path.startsWith('/api/predictions')
        ? (JSON.parse(sample.body.toString()) as { data: unknown[] }).data.length
        : undefined;
      if (points !== undefined && points < 96)
        throw new Error(`${endpoint.path} served ${points} datapoints, not the 96-point page this measures`);
      const raw = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile, sample.headersFile]);
      try {
        const targets: LoadTarget[] = [
          { name: 'raw node:http, same response bytes', url: raw.info.url!, child: raw.child },
          ...servers.map((s) => ({
            name: s.label,
            url: `${s.url}${endpoint.path}`,
            headers: { authorization: `Bearer ${s.token}` },
            child: serverProcess(s.child.pid!),
          })),
        ];
        const results = await compare(targets);
        const baseline = results[0]!;
        printTable(`${endpoint.name}, ${sample.body.length} B body — npm start, jobs on`, results, baseline);
        measured.push({
          endpoint: endpoint.name,
          path: endpoint.path,
          bodyBytes: sample.body.length,
          ...(points === undefined ? {} : { datapoints: points }),
          targets: results.map((r) => summary(r, baseline)),
        });
      } finally {
        await stopTarget(raw.child);
      }
    }
    const results = {
      measuredAt: new Date().toISOString(),
      method: {
        start:
          'npm start (node dist/main/cli.js serve), defaults, embedded PGlite, simulated market, jobs on',
        generator: generatorName(),
        connections,
        rounds: Number(process.env.BENCH_ROUNDS ?? 5),
        roundSeconds: Number(process.env.BENCH_SECONDS ?? 4),
        settleSeconds,
        placement: placementLabel(),
        figures: 'median of alternating rounds; ratios against raw node:http in the same run',
      },
      machine: { loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadNow() },
      targets: { throughputRatio: targetRatio, p99Factor: targetP99Factor },
      endpoints: measured,
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/pipeline.json', `${JSON.stringify(results, null, 2)}\n`);
    console.log('\nwritten to bench/results/pipeline.json');
    return results;
  } finally {
    await Promise.all(servers.map((s) => stopServed(s.child)));
    for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
  }
}

function summary(r: LoadResult, raw: LoadResult) {
  const ratio = r.requestsPerSec / raw.requestsPerSec;
  const p99Factor = r.p99Ms / raw.p99Ms;
  return {
    name: r.name,
    requestsPerSec: r.requestsPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    cpuUsPerRequest: r.cpuUsPerRequest === undefined ? null : Math.round(r.cpuUsPerRequest * 10) / 10,
    non2xx: r.non2xx,
    ratioToRaw: Math.round(ratio * 100) / 100,
    p99ToRaw: Math.round(p99Factor * 100) / 100,
    meetsTargets: ratio >= targetRatio && p99Factor <= targetP99Factor,
  };
}
