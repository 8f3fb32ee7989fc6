import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadTarget {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function once(target: LoadTarget, duration: number) {
  return autocannon({ url: target.url, headers: target.headers ?? {}, connections: 32, duration });
}

/**
 * Measures targets in alternation (A, B, A, B, …) so that a change in background load hits all of them
 * alike, and reports each target's median round. Every target is warmed up first.
 */
export async function compare(targets: LoadTarget[]): Promise<LoadResult[]> {
  for (const target of targets) await once(target, 2);
  const samples = new Map<string, autocannon.Result[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) samples.get(target.name)!.push(await once(target, seconds));
  }
  return targets.map((target) => {
    const runs = samples.get(target.name)!.sort((a, b) => a.requests.average - b.requests.average);
    const median = runs[Math.floor(runs.length / 2)]!;
    return {
      name: target.name,
      requestsPerSec: Math.round(median.requests.average),
      p50Ms: median.latency.p50,
      p99Ms: median.latency.p99,
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    };
  });
}

/** Starts a bench target in its own process (so the load generator does not share its event loop). */
export function startTarget(
  script: string,
  args: string[],
): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
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
  console.log(`\n${title} — median of ${rounds} alternating ${seconds}s rounds, 32 connections`);
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | ratio to raw |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${(r.requestsPerSec / baseline.requestsPerSec).toFixed(2)} |`,
    );
  }
}
