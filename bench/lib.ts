import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GeneratorRun, generatorName, runLoad } from './generator.ts';
import { pinEventLoop, placementLabel } from './placement.ts';
import { median } from './stats.ts';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** The server process's CPU time (user + system) per request served, median round; undefined without /proc. */
  cpuUsPerRequest?: number;
  /** Which load generator ran, and its own CPU use in the median round (% of one core). */
  generator: GeneratorRun['generator'];
  generatorCpuPercent: number;
}

export interface LoadTarget {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** The server process, so its CPU time per request can be read (Linux /proc). */
  child?: ChildProcess;
}

/**
 * CPU seconds used so far by a process (user + system), from /proc. Throughput ratios on a 2-core machine
 * that also runs the load generator swing with background load (a busy machine throttles the fast baseline
 * most); CPU per request is what the server itself spends, and is far steadier.
 */
function cpuSeconds(child: ChildProcess | undefined): number | undefined {
  if (!child?.pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
/** Load each target takes before the rounds: a server's hot path is compiled under load, not at start-up. */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 8);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);

function once(target: LoadTarget, duration: number): Promise<GeneratorRun> {
  return runLoad({ url: target.url, headers: target.headers, connections, seconds: duration });
}

/**
 * Measures targets in alternation (A, B, A, B, …) so that a change in background load hits all of them
 * alike, and reports each target's median round. Every target is warmed up first (`BENCH_WARMUP_SECONDS`,
 * default 8). Each target's event loop is pinned to the servers' core, the generator to its own
 * (`placement.ts`).
 */
export async function compare(targets: LoadTarget[]): Promise<LoadResult[]> {
  for (const target of targets) pinEventLoop(target.child?.pid);
  for (const target of targets) await once(target, warmupSeconds);
  const samples = new Map<string, { result: GeneratorRun; cpuUs?: number }[]>(
    targets.map((t) => [t.name, []]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const before = cpuSeconds(target.child);
      const result = await once(target, seconds);
      const after = cpuSeconds(target.child);
      const cpuUs =
        before !== undefined && after !== undefined && result.requests > 0
          ? ((after - before) * 1e6) / result.requests
          : undefined;
      samples.get(target.name)!.push({ result, cpuUs });
    }
  }
  return targets.map((target) => {
    const runs = samples.get(target.name)!;
    const byThroughput = [...runs].sort((a, b) => a.result.requestsPerSec - b.result.requestsPerSec);
    const middle = byThroughput[Math.floor(runs.length / 2)]!.result;
    // Each figure is the median of its own over the rounds: a round's p99 swings with whether a full garbage
    // collection fell in it, independently of that round's throughput.
    const cpu = runs.map((r) => r.cpuUs).filter((v): v is number => v !== undefined);
    return {
      name: target.name,
      requestsPerSec: Math.round(middle.requestsPerSec),
      p50Ms: median(runs.map((r) => r.result.p50Ms)),
      p99Ms: median(runs.map((r) => r.result.p99Ms)),
      non2xx: runs.reduce((n, r) => n + r.result.non2xx + r.result.errors, 0),
      cpuUsPerRequest: cpu.length ? median(cpu) : undefined,
      generator: middle.generator,
      generatorCpuPercent: (100 * middle.generatorCpuSeconds) / middle.durationSeconds,
    };
  });
}

/** Headers node:http adds to every response by itself (the raw baseline gets them without being told). */
const addedByNode = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * One response of the app under test, written to files for the raw baseline (`bench/targets/raw-bytes.ts`):
 * the body, and the headers that make the raw server's answer the same bytes — status line, header names
 * and values (the sample's request id and rate-limit values, sent verbatim every time) and body. The raw
 * server then pays for what any server pays to send that response, and the ratio measures what the app does
 * beyond it. `bodyOnly` is the stricter reference the figures before 2026-11-22 20:00 used: the body with a
 * content type, without the app's request-id and rate-limit headers.
 */
export async function captureResponse(
  url: string,
  headers: Record<string, string>,
  name: string,
): Promise<{ body: Buffer; bodyFile: string; headersFile: string; headerBytes: number }> {
  const sample = await fetch(url, { headers });
  if (sample.status !== 200) throw new Error(`${url} answered ${sample.status}: ${await sample.text()}`);
  const body = Buffer.from(await sample.arrayBuffer());
  const replay: Record<string, string> = {};
  sample.headers.forEach((value, key) => {
    if (!addedByNode.has(key)) replay[key] = value;
  });
  const base = join(tmpdir(), `meridian-bench-${name}-${process.pid}`);
  writeFileSync(`${base}.body`, body);
  writeFileSync(`${base}.headers.json`, JSON.stringify(replay));
  const headerBytes = Object.entries(replay).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return { body, bodyFile: `${base}.body`, headersFile: `${base}.headers.json`, headerBytes };
}

/** Starts a bench target in its own process (so the load generator does not share its event loop). */
export function startTarget(
  script: string,
  args: string[],
  /** Extra environment of the target (its configuration). */
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve({ child, info: JSON.parse(line.slice(6)) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

export function stopTarget(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function printTable(title: string, rows: LoadResult[], baseline: LoadResult) {
  console.log(
    `\n${title} — ${generatorName()}, ${connections} connections, median of ${rounds} alternating ${seconds}s rounds, ${placementLabel()}`,
  );
  console.log(
    '| target | req/s | p50 ms | p99 ms | non-2xx/errors | ratio to raw | server CPU µs/req | CPU ratio (raw ÷ this) | generator CPU % |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const cpu = (r: LoadResult) => (r.cpuUsPerRequest === undefined ? 'n/a' : r.cpuUsPerRequest.toFixed(1));
  const cpuRatio = (r: LoadResult) =>
    r.cpuUsPerRequest === undefined || baseline.cpuUsPerRequest === undefined
      ? 'n/a'
      : (baseline.cpuUsPerRequest / r.cpuUsPerRequest).toFixed(2);
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requestsPerSec} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${(r.requestsPerSec / baseline.requestsPerSec).toFixed(2)} | ${cpu(r)} | ${cpuRatio(r)} | ${r.generatorCpuPercent.toFixed(0)} |`,
    );
  }
}
