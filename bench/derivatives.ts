import { openDatabase } from '../src/adapters/db/connect.ts';
import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';
import { manualClock } from '../src/shared/clock.ts';
import { fastHasher } from '../test/harness/app.ts';

/**
 * `GET /api/derivatives/history` for 1,000 points (one minute of open interest each) through the real app on
 * embedded PGlite in memory, against `GET /api/market-history` for 1,000 stored candles in the same run:
 * p50/p99 of each and the ratio. Target: history p99 ≤ 20 ms for 1,000 points.
 */
// 2 × (55 + 1) requests stay within the default plan's 120 a minute.
const REQUESTS = Number(process.env.BENCH_DERIVATIVES_REQUESTS ?? 55);
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
    const results: Record<string, { p50: number; p99: number; points: number }> = {};
    for (const [name, url] of Object.entries(urls)) {
      const first = await app.inject({ method: 'GET', url, headers });
      const points = (first.json() as { data: unknown[] }).data.length;
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      results[name] = { p50: pct(times, 0.5), p99: pct(times, 0.99), points };
    }
    for (const [name, r] of Object.entries(results))
      console.log(
        `${name.padEnd(32)} points ${String(r.points).padStart(5)}  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`,
      );
    const [d, m] = Object.values(results) as unknown as [{ p99: number }, { p99: number }];
    console.log(
      `derivatives p99 / market-history p99: ${(d.p99 / m.p99).toFixed(2)} (target: derivatives p99 ≤ 20 ms)`,
    );
  } finally {
    await app.close();
    await container.close();
    await db.close();
  }
}
