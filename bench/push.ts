import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';

/**
 * Push channel: Meridian's WebSocket /predictions (real handshake auth, subscriptions, per-subscription
 * shared frames, buffer checks) against a bare `ws` server sending the same bytes, in the same run. Both
 * servers refresh every second; clients run in separate processes (≤ 2,500 sockets each — one `ws` client
 * process saturates near 5,000) and record refresh-to-receive latency from the datapoints' `generatedAt`.
 * Server CPU is the server process's own user+system time over the measured window.
 *
 * Env: BENCH_PUSH_SIZES (default 1000,5000,10000), BENCH_PUSH_SECONDS (measured window, default 10),
 * BENCH_PUSH_ROUNDS (alternating rounds per size, default 2), BENCH_PUSH_NICE (e.g. -10: run the servers and
 * clients at that scheduling priority, so other work on a shared machine does not decide the latency; they
 * need well under one core), BENCH_PUSH_CLIENT (raw | ws, see targets/push-clients.ts), BENCH_PUSH_SLICE and
 * BENCH_PUSH_PREFRAMED=0 (Meridian's fan-out variant, see targets/push-server.ts).
 */
const sizes = (process.env.BENCH_PUSH_SIZES ?? '1000,5000,10000').split(',').map(Number);
const windowSeconds = Number(process.env.BENCH_PUSH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_PUSH_ROUNDS ?? 2);
const perProcess = 2_500;
const refreshMs = 1_000;

interface Target {
  name: string;
  child: ChildProcess;
  url: string;
  headers: Record<string, string>;
}

interface Row {
  subscribers: number;
  server: string;
  round: number;
  p50: number;
  p99: number;
  max: number;
  cpuPct: number;
  clientCpuPct: number;
  /** CPU µs per delivered message: server process, all client processes. */
  serverUs: number;
  clientUs: number;
  fanoutP99: number;
  deliveredPct: number;
  closedEarly: number;
  /** Meridian only: share of sends written as the pre-built frame (the rest went through ws.send). */
  preFramedPct?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const nice = process.env.BENCH_PUSH_NICE ? Number(process.env.BENCH_PUSH_NICE) : undefined;

function spawnChild(script: string): ChildProcess {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'silent', PUSH_REFRESH_MS: String(refreshMs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (nice !== undefined && child.pid) setPriority(child.pid, nice);
  return child;
}

function ask<T>(child: ChildProcess, message: object | null, accept: (m: any) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: any) => {
      if (!accept(m)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number) => reject(new Error(`child exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (message) child.send(message);
  });
}

async function startTarget(name: string, script: string): Promise<Target> {
  const child = spawnChild(script);
  const info = await ask<{ url: string; headers: Record<string, string> }>(child, null, (m) => m?.ready);
  return { name, child, url: info.url, headers: info.headers };
}

const cpuOf = (t: Target) =>
  ask<{ cpu: number; at: number; fanout: number[]; preFramedPct?: number }>(
    t.child,
    { cmd: 'cpu' },
    (m) => 'cpu' in m,
  );

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

async function measure(target: Target, subscribers: number, round: number): Promise<Row> {
  const processes = Math.ceil(subscribers / perProcess);
  const clients = Array.from({ length: processes }, () => spawnChild('bench/targets/push-clients.ts'));
  try {
    const opened = await Promise.all(
      clients.map((c, i) =>
        ask<{ opened?: number; error?: string }>(
          c,
          {
            cmd: 'open',
            url: target.url,
            headers: target.headers,
            count: Math.floor(subscribers / processes) + (i < subscribers % processes ? 1 : 0),
          },
          (m) => 'opened' in m || 'error' in m,
        ),
      ),
    );
    const failed = opened.find((o) => o.error);
    if (failed) throw new Error(`${target.name}: opening sockets failed: ${failed.error}`);
    await sleep(2 * refreshMs); // warm-up: two refreshes
    for (const c of clients) c.send({ cmd: 'measure' });
    const cpu0 = await cpuOf(target);
    await sleep(windowSeconds * 1000);
    const cpu1 = await cpuOf(target);
    const reports = await Promise.all(
      clients.map((c) =>
        ask<{ latencies: number[]; received: number; closedEarly: number; cpuPct: number; cpuMs: number }>(
          c,
          { cmd: 'report' },
          (m) => 'latencies' in m,
        ),
      ),
    );
    const all = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const received = reports.reduce((n, r) => n + r.received, 0);
    const expected = subscribers * ((windowSeconds * 1000) / refreshMs);
    return {
      subscribers,
      server: target.name,
      round,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      max: all[all.length - 1] ?? Number.NaN,
      cpuPct: Math.round(((cpu1.cpu - cpu0.cpu) / (cpu1.at - cpu0.at)) * 100),
      clientCpuPct: Math.round(reports.reduce((n, r) => n + r.cpuPct, 0)),
      serverUs: Math.round(((cpu1.cpu - cpu0.cpu) * 10_000) / received) / 10,
      clientUs: Math.round((reports.reduce((n, r) => n + r.cpuMs, 0) * 10_000) / received) / 10,
      fanoutP99:
        Math.round(
          percentile(
            [...cpu1.fanout].sort((a, b) => a - b),
            99,
          ) * 10,
        ) / 10,
      deliveredPct: Math.round((received / expected) * 1000) / 10,
      closedEarly: reports.reduce((n, r) => n + r.closedEarly, 0),
      preFramedPct: cpu1.preFramedPct,
    };
  } finally {
    for (const c of clients) {
      if (c.connected) c.send({ cmd: 'close' });
    }
    await Promise.all(
      clients.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once('exit', r)))),
    );
    await sleep(500); // let the server notice the closes
  }
}

export async function run(): Promise<void> {
  const bare = await startTarget('bare ws, same bytes', 'bench/targets/push-bare.ts');
  const meridian = await startTarget('Meridian /predictions', 'bench/targets/push-server.ts');
  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 === 1 ? [bare, meridian] : [meridian, bare];
        for (const target of order) {
          const row = await measure(target, n, round);
          rows.push(row);
          console.log(
            `${n} subscribers, round ${round}, ${row.server}: p50 ${row.p50} ms, p99 ${row.p99} ms, max ${row.max} ms, ` +
              `server CPU ${row.cpuPct}% (${row.serverUs} µs/msg), clients CPU ${row.clientCpuPct}% (${row.clientUs} µs/msg), server fan-out p99 ${row.fanoutP99} ms, delivered ${row.deliveredPct}%, closed early ${row.closedEarly}` +
              (row.preFramedPct === undefined ? '' : `, pre-framed ${row.preFramedPct}%`),
          );
        }
      }
    }
  } finally {
    for (const t of [bare, meridian]) {
      t.child.kill('SIGTERM');
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    return Math.round(m * 10) / 10;
  };
  console.log(
    `\nPush channel — refresh every ${refreshMs / 1000} s, ${windowSeconds} s measured after 2 s warm-up, ` +
      `median of ${rounds} alternating round(s), ${process.env.BENCH_PUSH_CLIENT ?? 'raw'} clients` +
      (nice === undefined ? '' : `, nice ${nice}`),
  );
  console.log(
    '| subscribers | server | p50 ms | p99 ms | max ms | server CPU (% of a core) | server CPU µs/msg | clients CPU (% of a core) | clients CPU µs/msg | server fan-out p99 ms | delivered | p99 ÷ bare |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const n of sizes) {
    const of = (t: Target) => rows.filter((r) => r.subscribers === n && r.server === t.name);
    const bareP99 = median(of(bare).map((r) => r.p99));
    for (const t of [bare, meridian]) {
      const rs = of(t);
      const p99 = median(rs.map((r) => r.p99));
      console.log(
        `| ${n.toLocaleString('en')} | ${t.name} | ${median(rs.map((r) => r.p50))} | ${p99} | ${median(rs.map((r) => r.max))} | ` +
          `${median(rs.map((r) => r.cpuPct))} | ${median(rs.map((r) => r.serverUs))} | ${median(rs.map((r) => r.clientCpuPct))} | ${median(rs.map((r) => r.clientUs))} | ${median(rs.map((r) => r.fanoutP99))} | ${median(rs.map((r) => r.deliveredPct))}% | ${(p99 / bareP99).toFixed(2)} |`,
      );
    }
  }
}
