import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureResponse, compare, printTable, startTarget, stopTarget } from './lib.ts';

/**
 * The hot endpoints of the server as users start it: `npm start` (the README's command) on a fresh embedded
 * data folder, background jobs on (market feed, model refresh, indexer, alerts, webhooks), measured only
 * after `/readyz` says ready and a settling period has passed (start-up work done). Each endpoint is compared,
 * in alternation in the same run, with a bare node:http server replaying that endpoint's exact response
 * bytes and headers (`captureResponse`), and with bare Fastify doing the same.
 *
 * `BENCH_SETTLE_SECONDS` (default 60) is the wait after ready; the rate limits are raised through the
 * environment so the limiter runs on every request but never refuses.
 *
 * `BENCH_SERVED_VARIANT="NAME=value …"` starts a second `npm start` with those variables set and measures it
 * in the same alternation, so a setting is compared A/B in one run (e.g. `MERIDIAN_PGLITE_THREAD=false`).
 * `BENCH_SERVED_CHECKOUT=DIR` starts the second `npm start` in another checkout of Meridian instead (with
 * `BENCH_SERVED_VARIANT`'s variables, if set too), so a code change is compared A/B in one run: e.g.
 * `git worktree add /tmp/before HEAD~1` and link this checkout's `node_modules` into it.
 * Both servers run their jobs throughout; each idles while the other is measured.
 */
const settleSeconds = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);

/** The variant's environment from `BENCH_SERVED_VARIANT`, refused unless every item is NAME=value. */
function variantEnv(): Record<string, string> | undefined {
  const text = process.env.BENCH_SERVED_VARIANT?.trim();
  if (!text) return undefined;
  const env: Record<string, string> = {};
  for (const item of text.split(/\s+/)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(item);
    if (!m) throw new Error(`BENCH_SERVED_VARIANT: expected NAME=value items, got ${item}`);
    env[m[1]!] = m[2]!;
  }
  return env;
}

interface Started {
  child: ChildProcess;
  url: string;
  token: string;
}

function startServed(dataDir: string, extraEnv: Record<string, string> = {}, cwd?: string): Promise<Started> {
  // `detached` gives npm and everything it starts its own process group, stopped as a whole below.
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      MERIDIAN_DATA_DIR: dataDir,
      MERIDIAN_RATE_LIMIT_STANDARD: '1000000000',
      MERIDIAN_RATE_LIMIT_PRO: '1000000000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in 300 s:\n${out}`)), 300_000);
    child.stdout!.on('data', (d) => {
      out += d;
      // A first start writes the admin's credentials to a 0600 file in the data folder, never to stdout.
      const file = join(dataDir, 'first-start-credentials.txt');
      const token = existsSync(file)
        ? readFileSync(file, 'utf8').match(/API token:\s+(\S+)/)?.[1]
        : undefined;
      const url = out.match(/running at (http:\/\/\S+)/)?.[1];
      if (token && url) {
        clearTimeout(timer);
        resolve({ child, url, token });
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
}

async function waitReady(url: string) {
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('/readyz never answered 200');
}

function stopServed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
    setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 15_000).unref();
  });
}

/** The server process itself (node running the CLI), for its CPU time per request: npm's newest descendant. */
async function serverPid(npmPid: number): Promise<number | undefined> {
  const { execFileSync } = await import('node:child_process');
  const tree = execFileSync('ps', ['-o', 'pid=,args=', '-g', String(npmPid)], { encoding: 'utf8' });
  const line = tree
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => / serve\b/.test(l) && !/^\d+ (sh|npm)/.test(l))
    .at(-1);
  return line ? Number(line.split(' ')[0]) : undefined;
}

export async function run() {
  const checkout = process.env.BENCH_SERVED_CHECKOUT?.trim() || undefined;
  if (checkout && !existsSync(join(checkout, 'package.json')))
    throw new Error(`BENCH_SERVED_CHECKOUT: ${checkout} is not a checkout of Meridian (no package.json)`);
  const variant = variantEnv() ?? (checkout ? {} : undefined);
  const dataDirs = [mkdtempSync(join(tmpdir(), 'meridian-served-'))];
  if (variant) dataDirs.push(mkdtempSync(join(tmpdir(), 'meridian-served-variant-')));
  // One after the other: two start-ups at once would each slow the other's.
  const servers: Started[] = [];
  try {
    for (const [k, dir] of dataDirs.entries()) {
      const started = await startServed(dir, k === 0 ? {} : variant, k === 0 ? undefined : checkout);
      servers.push(started);
      await waitReady(started.url);
    }
  } catch (error) {
    await Promise.all(servers.map((s) => stopServed(s.child)));
    throw error;
  }
  const [served, other] = servers as [Started, Started | undefined];
  const variantLabel = [
    ...(checkout ? [`checkout ${checkout}`] : []),
    ...Object.entries(variant ?? {}).map(([k, v]) => `${k}=${v}`),
  ].join(' ');
  try {
    console.log(
      `\nnpm start is ready at ${served.url}${other ? ` and, with ${variantLabel}, at ${other.url}` : ''}; settling ${settleSeconds} s before measuring`,
    );
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const pid = await serverPid(served.child.pid!);
    const child = pid ? ({ pid } as ChildProcess) : undefined;
    const otherPid = other ? await serverPid(other.child.pid!) : undefined;
    const otherChild = otherPid ? ({ pid: otherPid } as ChildProcess) : undefined;
    const headers = { authorization: `Bearer ${served.token}` };
    const endpoints = [
      { name: 'GET /api/account', path: '/api/account' },
      { name: 'GET /api/market-data', path: '/api/market-data' },
      { name: 'GET /api/predictions BTCUSDT 1h', path: '/api/predictions?symbol=BTCUSDT&horizon=1h' },
    ];
    const ratios: Record<string, number> = {};
    for (const endpoint of endpoints) {
      const sample = await captureResponse(
        `${served.url}${endpoint.path}`,
        headers,
        `served-${endpoint.name.replace(/\W+/g, '-')}`,
      );
      const points = endpoint.path.startsWith('/api/predictions')
        ? ` (${(JSON.parse(sample.body.toString()) as { data: unknown[] }).data.length} datapoints)`
        : '';
      const raw = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile, sample.headersFile]);
      const bare = await startTarget('bench/targets/fastify-bytes.ts', [sample.bodyFile, sample.headersFile]);
      try {
        const results = await compare([
          { name: 'raw node:http, same response bytes', url: raw.info.url!, child: raw.child },
          { name: 'bare Fastify, same response bytes', url: bare.info.url!, child: bare.child },
          {
            name: `Meridian (npm start) ${endpoint.name}`,
            url: `${served.url}${endpoint.path}`,
            headers,
            child,
          },
          ...(other
            ? [
                {
                  name: `Meridian (npm start, ${variantLabel}) ${endpoint.name}`,
                  url: `${other.url}${endpoint.path}`,
                  headers: { authorization: `Bearer ${other.token}` },
                  child: otherChild,
                },
              ]
            : []),
        ]);
        const [baseline, , app, variantApp] = results;
        printTable(
          `${endpoint.name}${points}, ${sample.body.length} B body — server started with npm start, jobs on`,
          results,
          baseline!,
        );
        ratios[endpoint.name] = app!.requestsPerSec / baseline!.requestsPerSec;
        if (variantApp)
          ratios[`${endpoint.name} (${variantLabel})`] = variantApp.requestsPerSec / baseline!.requestsPerSec;
      } finally {
        await Promise.all([raw, bare].map((t) => stopTarget(t.child)));
      }
    }
    return ratios;
  } finally {
    await Promise.all(servers.map((s) => stopServed(s.child)));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}
