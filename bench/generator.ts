import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { onGeneratorCore } from './placement.ts';

/**
 * The load generator, always in its own process so it never shares an event loop (or, with wrk, a language
 * runtime) with the server it measures. `wrk` (C, one thread) when installed — it needs a fraction of the
 * CPU the servers need per request, so on a 2-core machine the server, not the generator, saturates first.
 * Without wrk, autocannon's CLI in a child process with worker threads. The generator's own CPU time is
 * reported with every round (bash's `times` over the child), so a saturated generator is visible.
 */
export interface GeneratorRun {
  generator: 'wrk' | 'autocannon';
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Generator CPU seconds (user + system) over the round. */
  generatorCpuSeconds: number;
  durationSeconds: number;
}

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

let wrkPath: string | null | undefined;
function findWrk(): string | null {
  if (wrkPath !== undefined) return wrkPath;
  wrkPath = null;
  if (process.env.BENCH_GENERATOR === 'autocannon') return wrkPath;
  try {
    wrkPath = execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null;
  } catch {
    wrkPath = null;
  }
  return wrkPath;
}

export function generatorName(): 'wrk' | 'autocannon' {
  return findWrk() ? 'wrk' : 'autocannon';
}

/** Runs `argv` under bash and appends bash's `times` (children's user and system CPU) to its stdout. */
function runTimed(argv: string[]): Promise<{ stdout: string; cpuSeconds: number }> {
  const quoted = argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${quoted}; status=$?; echo '@@times'; times; exit $status`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${argv[0]} exited with ${code}: ${err || out}`));
      const [body, times = ''] = out.split('@@times\n');
      // Second line of `times`: children's user and system time, e.g. "0m1.234s 0m0.210s".
      const childLine = times.trim().split('\n')[1] ?? '';
      const cpuSeconds = [...childLine.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
        (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
        0,
      );
      resolve({ stdout: body!, cpuSeconds });
    });
  });
}

const unitMs: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
function wrkDuration(text: string, label: string): number {
  const m = text.match(new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm'));
  return m ? Number(m[1]) * unitMs[m[2]!]! : Number.NaN;
}

/** Parses `wrk --latency` output (the figures wrk prints; nothing else is inferred). */
export function parseWrk(text: string) {
  const requests = Number(text.match(/(\d+) requests in/)?.[1] ?? Number.NaN);
  const socketErrors = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requests,
    requestsPerSec: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN),
    p50Ms: wrkDuration(text, '50%'),
    p99Ms: wrkDuration(text, '99%'),
    non2xx: Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: socketErrors ? socketErrors.slice(1).reduce((n, v) => n + Number(v), 0) : 0,
  };
}

export async function runLoad(spec: LoadSpec): Promise<GeneratorRun> {
  const headerArgs = Object.entries(spec.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const wrk = findWrk();
  if (wrk) {
    const argv = [
      wrk,
      '-t1',
      `-c${spec.connections}`,
      `-d${spec.seconds}s`,
      '--latency',
      ...headerArgs,
      spec.url,
    ];
    const { stdout, cpuSeconds } = await runTimed(onGeneratorCore(argv));
    const parsed = parseWrk(stdout);
    if (!Number.isFinite(parsed.requestsPerSec)) throw new Error(`could not read wrk's output:\n${stdout}`);
    return { generator: 'wrk', ...parsed, generatorCpuSeconds: cpuSeconds, durationSeconds: spec.seconds };
  }
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const argv = [
    process.execPath,
    cli,
    '-c',
    String(spec.connections),
    '-d',
    String(spec.seconds),
    '-w',
    '2',
    '-j',
    ...headerArgs,
    spec.url,
  ];
  const { stdout, cpuSeconds } = await runTimed(onGeneratorCore(argv));
  const result = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    requests: { total: number; average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    generator: 'autocannon',
    requests: result.requests.total,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    generatorCpuSeconds: cpuSeconds,
    durationSeconds: spec.seconds,
  };
}
