import { writeFileSync } from 'node:fs';
import { openDatabase } from '../src/adapters/db/connect.ts';
import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';
import { manualClock } from '../src/shared/clock.ts';
import { fastHasher } from '../test/harness/app.ts';

/**
 * `GET /api/derivatives/history` for 1,000 points (one minute of open interest each) through the real app on
 * embedded PGlite in memory, against `GET /api/market-history` for 1,000 stored candles in the same run:
 * p50/p99 of each and the ratio. Target: history p99 ≤ 20 ms for 1,000 points. Results go to
 * bench/results/derivatives.json.
 */
// Timed requests per endpoint, after WARM_UP untimed ones each; the bench account's rate limit is raised to fit.
const REQUESTS = Number(process.env.BENCH_DERIVATIVES_REQUESTS ?? 1000);
const WARM_UP = 100;
const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

export async function run() {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    MERIDIAN_SYMBOLS: 'BTCUSDT',
    MERIDIAN_DERIVATIVES_HISTORY_DAYS: '1',
  });
  const db = await openDatabase({});
  const clock = manualClock(NOW);
  const container = await buildContainer(config, { hasher: fastHasher, db, clock });
  const app = await buildServer(container, { logLevel: 'silent' });
  await app.ready();
  try {
    const { user } = await container.accounts.createUser({
      email: 'b@example.com',
      role: 'member',
      password: 'correct horse battery',
    });
    await container.accounts.setPlan(user.email, 'standard', 100_000);
    const { token } = await container.accounts.createToken(user.id, { name: 'bench', permissions: null });
    const headers = { authorization: `Bearer ${token}` };
    // 1,000 minutes of open interest, as the live refresh stores them.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      symbol: 'BTCUSDT',
      metric: 'open_interest' as const,
      time: NOW - 1000 * 60_000 + i * 60_000 - (NOW % 60_000),
      value: 5e9 + i,
      value2: 80_000 + i,
    }));
    const { createKyselyDerivativesRepository } = await import('../src/modules/derivatives/index.ts');
    const { tablesOf } = await import('../src/adapters/db/connect.ts');
    await createKyselyDerivativesRepository(tablesOf(db.db)).upsert(rows);
    const from = rows[0]!.time;
    const urls = {
      'derivatives history (1000 pts)': `/api/derivatives/history?symbol=BTCUSDT&metric=open_interest&interval=1m&limit=1000&from=${from}&to=${NOW}`,
      'market history (1000 candles)': `/api/market-history?symbol=BTCUSDT&interval=1m&limit=1000&from=${from}&to=${NOW - (NOW % 60_000)}`,
    };
    const names = Object.keys(urls) as (keyof typeof urls)[];
    const times = Object.fromEntries(names.map((n) => [n, [] as number[]]));
    const points: Record<string, number> = {};
    for (const name of names)
      for (let i = 0; i < WARM_UP; i++) {
        const res = await app.inject({ method: 'GET', url: urls[name], headers });
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        points[name] = (res.json() as { data: unknown[] }).data.length;
      }
    // Interleaved, so that a pause of the process (GC, the machine) falls on both series alike.
    for (let i = 0; i < REQUESTS; i++)
      for (const name of names) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: urls[name], headers });
        times[name]!.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    const results = Object.fromEntries(
      names.map((n) => [n, { p50: pct(times[n]!, 0.5), p99: pct(times[n]!, 0.99), points: points[n]! }]),
    );
    for (const [name, r] of Object.entries(results))
      console.log(
        `${name.padEnd(32)} points ${String(r.points).padStart(5)}  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`,
      );
    const [d, m] = Object.values(results) as unknown as [{ p99: number }, { p99: number }];
    writeFileSync(
      'bench/results/derivatives.json',
      `${JSON.stringify({ requests: REQUESTS, results }, null, 2)}\n`,
    );
    console.log(
      `derivatives p99 / market-history p99: ${(d.p99 / m.p99).toFixed(2)} (target: derivatives p99 ≤ 20 ms)`,
    );
  } finally {
    await app.close();
    await container.close();
    await db.close();
  }
}
