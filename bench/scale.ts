import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Cost per symbol, the way users start the server: `node dist/main/cli.js serve` (what `npm start` runs once
 * its checks are done) on a fresh embedded data folder, simulated market, defaults otherwise, background jobs
 * on, no CPU pinning. For each universe size (`BENCH_SCALE_SYMBOLS`, default 7,50,200,500; 7 is the default
 * universe, the others `MERIDIAN_SYMBOLS=top:N`) it measures:
 * - ready: seconds from launch to `/readyz` 200;
 * - settled: seconds until start-up work is done (history component ok, every symbol forecast), waited for at
 *   most `BENCH_SCALE_SETTLE_MAX_SECONDS` (default 1800): past it the row says how many symbols were forecast;
 * - peak RSS (VmHWM) and steady RSS after `BENCH_SCALE_IDLE_SECONDS` (default 60) of idling once settled;
 * - CPU of that idle stretch, as a share of one core;
 * - ingest lag: now minus `Meridian-As-Of` of market answers (median of 50);
 * - the duration of the first model refresh that began after start-up work was done (from /readyz);
 * - `GET /api/market-data` (first page) and `GET /api/market-history` (random symbols, 1m, 500 bars) p50/p99;
 * - the data folder's size at the end (`BENCH_SCALE_RUN_SECONDS` after launch, default 600, at least the above);
 * - where the steady RSS is (`/proc/<pid>/smaps`): PGlite's WebAssembly memory, the C allocator's arenas
 *   (freed memory it keeps counts here), V8's heaps and other anonymous memory, mapped files (code);
 * - the peak RSS of the short-lived process that creates the embedded database (sampled every 100 ms).
 * Results go to bench/results/scale.json; the marginal cost per symbol is the slope between the sizes.
 */
const sizes = (process.env.BENCH_SCALE_SYMBOLS ?? '7,50,200,500').split(',').map(Number);
const idleSeconds = Number(process.env.BENCH_SCALE_IDLE_SECONDS ?? 60);
const runSeconds = Number(process.env.BENCH_SCALE_RUN_SECONDS ?? 600);
const settleMaxSeconds = Number(process.env.BENCH_SCALE_SETTLE_MAX_SECONDS ?? 1800);
const root = new URL('..', import.meta.url).pathname;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Row {
  symbols: number;
  readySeconds: number;
  historyReadySeconds: number | null;
  settledSeconds: number | null;
  /** Symbols forecast when the measurement began (all of them once settled). */
  warmSymbols: number;
  peakRssMb: number;
  steadyRssMb: number;
  idleCpuPercent: number;
  ingestLagMs: number;
  refreshMs: number | null;
  marketDataP50Ms: number;
  marketDataP99Ms: number;
  historyP50Ms: number;
  historyP99Ms: number;
  dataFolderMb: number;
  runSeconds: number;
  /** Steady RSS by kind, MB (see `rssByKind`). */
  steadyWasmMb: number;
  steadyMallocMb: number;
  steadyAnonMb: number;
  steadyFilesMb: number;
  /** Peak RSS of the child process that created the database (0: none seen). */
  createPeakRssMb: number;
}

/**
 * RSS by kind from smaps, MB. A WebAssembly memory is the committed mapping just below its multi-GB
 * reservation; the C allocator's arenas are `[heap]` and the 64 MB-aligned heaps of its thread arenas;
 * the rest of the anonymous memory is mostly V8's heaps and generated code.
 */
function rssByKind(pid: number): { wasm: number; malloc: number; anon: number; files: number } {
  const maps: Array<{ start: bigint; end: bigint; name: string; rss: number }> = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) maps.push({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), name: m[3]!, rss: 0 });
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r && maps.length) maps[maps.length - 1]!.rss = Number(r[1]);
  }
  const out = { wasm: 0, malloc: 0, anon: 0, files: 0 };
  const arena = 64n << 20n;
  maps.forEach((x, i) => {
    const next = maps[i + 1];
    const reservedAfter = next && next.start === x.end && !next.name && next.rss === 0;
    if (x.name === '[heap]') out.malloc += x.rss;
    else if (x.name.startsWith('/')) out.files += x.rss;
    else if (reservedAfter && next.end - next.start >= 4n << 30n) out.wasm += x.rss;
    else if (!x.name && x.start % arena === 0n && (x.end - x.start === arena || reservedAfter))
      out.malloc += x.rss;
    else out.anon += x.rss;
  });
  return {
    wasm: Math.round(out.wasm / 1024),
    malloc: Math.round(out.malloc / 1024),
    anon: Math.round(out.anon / 1024),
    files: Math.round(out.files / 1024),
  };
}

/** The largest VmRSS among `pid`'s child processes now, MB (0 when it has none). */
function childrenRssMb(pid: number): number {
  let max = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean))
        max = Math.max(max, status(Number(child), 'VmRSS:') / 1024);
  } catch {
    // A child (or a thread) that ended between the listing and the read.
  }
  return Math.round(max);
}

function get(
  port: number,
  path: string,
  token?: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const status = (pid: number, field: string) =>
  Number(
    /\d+/.exec(
      readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field)) ?? '',
    )?.[0] ?? 0,
  );
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

async function timed(n: number, path: () => string, port: number, token: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await get(port, path(), token);
    if (res.status !== 200) throw new Error(`${path()}: ${res.status} ${res.body.slice(0, 200)}`);
    out.push(performance.now() - started);
  }
  return out;
}

async function measure(symbols: number): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-scale-'));
  const port = 18_500 + symbols;
  const launched = Date.now();
  const child: ChildProcess = spawn(process.execPath, ['dist/main/cli.js', 'serve'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      MERIDIAN_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MERIDIAN_RATE_LIMIT_STANDARD: '1000000000',
      ...(symbols === 7 ? {} : { MERIDIAN_SYMBOLS: `top:${symbols}` }),
    },
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const pid = child.pid!;
  try {
    let readySeconds = 0;
    let createPeakRssMb = 0;
    for (;;) {
      createPeakRssMb = Math.max(createPeakRssMb, childrenRssMb(pid));
      if (child.exitCode !== null) throw new Error(`server exited: ${output.slice(-2000)}`);
      const res = await get(port, '/readyz').catch(() => undefined);
      if (res?.status === 200) {
        readySeconds = (Date.now() - launched) / 1000;
        break;
      }
      await sleep(100);
    }
    // A first start writes the admin's credentials to a 0600 file in the data folder, never to stdout.
    const token = /API token:\s+(mrd_\S+)/.exec(
      readFileSync(join(dataDir, 'first-start-credentials.txt'), 'utf8'),
    )?.[1];
    if (!token) throw new Error('no bootstrap token written');
    let settledSeconds: number | null = null;
    let historyReadySeconds: number | null = null;
    let warmSymbols = 0;
    let readiness:
      | { components: Record<string, { status: string; details?: Record<string, number> }> }
      | undefined;
    while (Date.now() - launched < settleMaxSeconds * 1000) {
      readiness = JSON.parse((await get(port, '/readyz')).body);
      const c = readiness!.components;
      if (c.history?.status === 'ok' && historyReadySeconds === null)
        historyReadySeconds = (Date.now() - launched) / 1000;
      warmSymbols = c.model?.status === 'ok' ? symbols : (c.model?.details?.warmSymbols ?? 0);
      if (c.history?.status === 'ok' && c.model?.status === 'ok') {
        settledSeconds = (Date.now() - launched) / 1000;
        break;
      }
      await sleep(500);
    }
    const ticks0 = cpuTicks(pid);
    await sleep(idleSeconds * 1000);
    const idleCpuPercent = ((cpuTicks(pid) - ticks0) / 100 / idleSeconds) * 100;
    const steadyRssMb = status(pid, 'VmRSS:') / 1024;
    const kinds = rssByKind(pid);
    const lags: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await get(port, '/api/market-data?limit=1', token);
      lags.push(Date.now() - Date.parse(String(res.headers['meridian-as-of'])));
      await sleep(20);
    }
    const universe = (
      JSON.parse((await get(port, `/api/market-data?limit=500`, token)).body) as {
        data: Array<{ symbol: string }>;
      }
    ).data.map((d) => d.symbol);
    const marketData = await timed(300, () => '/api/market-data', port, token);
    let k = 0;
    const history = await timed(
      300,
      () => {
        const symbol = universe[(k++ * 7919) % universe.length]!;
        const to = Date.now() - ((k * 104_729) % (5 * 86_400_000));
        return `/api/market-history?symbol=${symbol}&interval=1m&limit=500&to=${to}`;
      },
      port,
      token,
    );
    // A refresh that began after start-up work was done (the first one scores the whole forecast backfill).
    const settledAt = Date.now();
    let refreshMs: number | null = null;
    while (settledSeconds !== null && Date.now() - settledAt < 180_000) {
      readiness = JSON.parse((await get(port, '/readyz')).body);
      const details = readiness!.components.model?.details;
      const sinceSettled = (Date.now() - launched) / 1000 - settledSeconds;
      if (details?.lastRefreshAgeSeconds !== undefined && details.lastRefreshAgeSeconds < sinceSettled - 1) {
        refreshMs = details.lastRefreshDurationMs ?? null;
        break;
      }
      await sleep(1000);
    }
    const left = runSeconds * 1000 - (Date.now() - launched);
    if (left > 0) await sleep(left);
    const peakRssMb = status(pid, 'VmHWM:') / 1024;
    return {
      symbols,
      readySeconds,
      historyReadySeconds,
      settledSeconds,
      warmSymbols,
      peakRssMb: Math.round(peakRssMb),
      steadyRssMb: Math.round(steadyRssMb),
      idleCpuPercent: Math.round(idleCpuPercent * 10) / 10,
      ingestLagMs: Math.round(percentile(lags, 50)),
      refreshMs,
      marketDataP50Ms: Math.round(percentile(marketData, 50) * 100) / 100,
      marketDataP99Ms: Math.round(percentile(marketData, 99) * 100) / 100,
      historyP50Ms: Math.round(percentile(history, 50) * 100) / 100,
      historyP99Ms: Math.round(percentile(history, 99) * 100) / 100,
      dataFolderMb: Math.round(folderBytes(dataDir) / 1e6),
      runSeconds: Math.round((Date.now() - launched) / 1000),
      steadyWasmMb: kinds.wasm,
      steadyMallocMb: kinds.malloc,
      steadyAnonMb: kinds.anon,
      steadyFilesMb: kinds.files,
      createPeakRssMb,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of sizes) {
    const row = await measure(n);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  // Marginal cost per symbol: the slope from the smallest to the largest universe.
  const a = rows[0]!;
  const b = rows.at(-1)!;
  const perSymbol =
    rows.length > 1
      ? {
          steadyRssMb: (b.steadyRssMb - a.steadyRssMb) / (b.symbols - a.symbols),
          idleCpuPercent: (b.idleCpuPercent - a.idleCpuPercent) / (b.symbols - a.symbols),
        }
      : undefined;
  console.table(rows);
  if (perSymbol) console.log('marginal cost per symbol', perSymbol);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/scale.json'),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), idleSeconds, runSeconds, rows, perSymbol }, null, 2)}\n`,
  );
  return rows;
}
