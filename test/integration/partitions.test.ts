import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase, tablesOf } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { jobRunner } from '../../src/app/jobs.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import {
  type MarketTables,
  createKyselyCandleRepository,
  partitionOf,
} from '../../src/modules/market/index.ts';
import {
  type PredictionsTables,
  createKyselyPredictionRepository,
} from '../../src/modules/predictions/index.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestPostgres, postgresAvailable, redisUrl } from '../harness/db.ts';
import { believedTerm, blockingDb, gate } from '../harness/leases.ts';
import { waitFor } from '../harness/wait.ts';

const busPrefix = `meridian:test:${randomBytes(4).toString('hex')}:bus:`;

/** Two symbols in each of 4 partitions (partitionOf: BTC, ETH → 0; SOL, XRP → 1; TON, LTC → 2; ADA, AVAX → 3). */
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'TONUSDT', 'LTCUSDT', 'ADAUSDT', 'AVAXUSDT'];
const REFRESH_MS = 2_000;
const LEASE_MS = 6_000;

interface Process {
  container: Container;
  jobs: ReturnType<typeof jobRunner>;
  db: DbHandle;
}

/**
 * MERIDIAN_MARKET_PARTITIONS on the real PostgreSQL and Redis: two worker containers and one API replica in this
 * test process, each with a pool of its own and one bus (an isolated channel prefix). Worker `a` is cut off
 * from storage (its answers held, as a frozen database or a blackholed link) to make it lose its partitions.
 */
describe.runIf(postgresAvailable() && redisUrl())('market partitions shared by two workers', () => {
  let handle: (DbHandle & { url: string }) | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!().catch(() => {});
    await handle?.close();
  });

  it('4 partitions split 2/2; an API replica lists every symbol; a worker cut off hands its partitions over, its old terms refused', async () => {
    handle = await openTestPostgres();
    expect(SYMBOLS.map((s) => partitionOf(s, 4))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    const prefix = `meridian:test-${randomBytes(6).toString('hex')}:`;
    const config = loadConfig({
      DATABASE_URL: handle.url,
      REDIS_URL: redisUrl()!,
      // Its own bus channels: other suites' servers share this Redis, and pub/sub ignores the database number.
      MERIDIAN_BUS_PREFIX: busPrefix,
      MERIDIAN_MARKET_PARTITIONS: '4',
      MERIDIAN_SYMBOLS: SYMBOLS.join(','),
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
      MERIDIAN_MARKET_STALE_MS: '3000',
      MERIDIAN_MODEL_REFRESH_MS: String(REFRESH_MS),
      LOG_LEVEL: 'silent',
    });
    const cut = gate();
    const start = async (
      role: 'worker' | 'api',
      held?: () => Promise<void> | undefined,
    ): Promise<Process> => {
      const own = await openDatabase({ databaseUrl: handle!.url, poolSize: 10 });
      const db = held ? { ...own, db: blockingDb(own.db, held) } : own;
      const container = await buildContainer(config, {
        db,
        skipMigrations: true,
        hasher: fastHasher,
        leaderLeaseMs: LEASE_MS,
        busChannelPrefix: prefix,
      });
      const jobs = jobRunner(role === 'api' ? container.apiFollowers : container.jobs, container.logger);
      await jobs.start();
      closers.push(async () => {
        cut.open();
        await jobs.stop();
        await container.close();
        await own.close();
      });
      return { container, jobs, db: own };
    };
    const led = (p: Process) => p.container.partitions!.job.led().sort();
    const runningSymbols = (p: Process) =>
      p.container.partitions!.running().flatMap((r) => (r.market.running() ? [...r.symbols] : []));

    // ── two workers share the 4 partitions 2/2 ──
    // (Generous waits: on a loaded machine a worker whose pool is busy can lose a lease and take it back before
    // the split settles; what is checked is where it settles.)
    const a = await start('worker', cut.held);
    await waitFor(
      async () => (led(a).length === 4 ? true : undefined),
      'worker a alone to lead all 4',
      90_000,
      200,
    );
    const b = await start('worker');
    await waitFor(
      async () => (led(a).length === 2 && led(b).length === 2 ? true : undefined),
      'the partitions split 2/2',
      90_000,
      200,
    );
    expect([...led(a), ...led(b)].sort()).toEqual(['market:0', 'market:1', 'market:2', 'market:3']);
    // Each symbol's market runs in exactly one worker.
    await waitFor(
      async () => (runningSymbols(a).length + runningSymbols(b).length === 8 ? true : undefined),
      'every partition market running',
      30_000,
      200,
    );
    expect([...runningSymbols(a), ...runningSymbols(b)].sort()).toEqual([...SYMBOLS].sort());
    for (const symbol of runningSymbols(a)) expect(runningSymbols(b)).not.toContain(symbol);
    // Each worker's /readyz reports the history fill of the partitions it leads, as one component.
    for (const w of [a, b]) {
      const history = (await w.container.readiness()).components.history;
      expect(history?.details?.symbols).toBe(runningSymbols(w).length);
    }

    // ── an API replica serves every symbol of every partition ──
    const api = await start('api');
    const app: App = await buildServer(api.container, { logLevel: 'silent' });
    closers.push(() => app.close());
    const { user } = await api.container.accounts.createUser({
      email: `partitions-${Date.now()}@example.com`,
      role: 'member',
      password: 'correct horse battery',
    });
    const { token } = await api.container.accounts.createToken(user.id, { name: 'test' });
    const marketData = async () => {
      const res = await app.inject({
        url: '/api/market-data',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: Array<{ symbol: string; venues: Array<{ stale: boolean }> }> }).data;
    };
    const allFresh = async () => {
      const data = await marketData();
      return data.length === 8 && data.every((i) => i.venues.some((v) => !v.stale)) ? data : undefined;
    };
    const listed = await waitFor(allFresh, 'every symbol fresh on the API replica', 60_000, 200);
    expect(listed.map((i) => i.symbol)).toEqual(SYMBOLS);

    // Forecasts of worker a's partitions are stored before it is cut off (its model refresh runs there).
    const lostPartitions = a.container.partitions!.running().map((r) => ({
      index: r.index,
      term: r.term.term,
      symbols: [...r.symbols],
    }));
    const lostSymbols = lostPartitions.flatMap((p) => p.symbols);
    const predictionsDb = tablesOf<PredictionsTables>(handle.db);
    await waitFor(
      async () => {
        const rows = await predictionsDb
          .selectFrom('predictions')
          .select('symbol')
          .distinct()
          .where('symbol', 'in', lostSymbols)
          .execute();
        return rows.length === lostSymbols.length ? true : undefined;
      },
      "forecasts of worker a's symbols stored",
      150_000,
      500,
    );

    // ── worker a is cut off from storage: b takes its partitions within the lease ──
    cut.close();
    const cutAt = Date.now();
    await waitFor(
      async () => (led(b).length === 4 ? true : undefined),
      'worker b to lead all 4',
      30_000,
      200,
    );
    const takeoverMs = Date.now() - cutAt;
    // A lease for a's presence and leases to run out, plus a campaign period (a quarter lease) and the
    // presence round that counts the members again — with room for a loaded machine.
    expect(takeoverMs).toBeLessThan(4 * LEASE_MS);
    expect(led(a)).toEqual([]);
    // a stopped its partitions (its watchdog, at half a lease) though its storage still does not answer.
    expect(runningSymbols(a)).toEqual([]);
    for (const lost of lostPartitions) {
      const now = b.container.partitions!.running().find((r) => r.index === lost.index)!;
      expect(now.term.term).toBeGreaterThan(lost.term);
    }
    // The replica shows b's copies of a's symbols fresh again (newest term per partition).
    await waitFor(allFresh, "a's symbols fresh again from b", 60_000, 200);

    // ── fencing: writes carrying a's old terms are refused, even from a process that believes it leads ──
    const candles = createKyselyCandleRepository(tablesOf<MarketTables>(handle.db));
    const forecasts = createKyselyPredictionRepository(predictionsDb);
    const [sample] = await predictionsDb
      .selectFrom('predictions')
      .selectAll()
      .where('symbol', 'in', lostSymbols)
      .limit(1)
      .execute();
    for (const lost of lostPartitions) {
      const old = believedTerm(`market:${lost.index}`, lost.term);
      const symbol = lost.symbols[0]!;
      await expect(
        candles.upsert(
          [
            {
              symbol,
              venue: 'merged',
              interval: '1m',
              openTime: 0,
              open: 1,
              high: 1,
              low: 1,
              close: 1,
              volume: 0,
              quoteVolume: 0,
            },
          ],
          old,
        ),
      ).rejects.toThrow(StaleLeaderError);
      await expect(
        forecasts.record([{ ...sample!, symbol, generated_at: Date.now() }], [], old),
      ).rejects.toThrow(StaleLeaderError);
    }

    // a's storage answers again: whatever it had in flight is refused by term, and it does not take back
    // more than its share (b hands two partitions back once a's presence counts again).
    cut.open();
    await waitFor(
      async () => (led(a).length === 2 && led(b).length === 2 ? true : undefined),
      'the partitions split 2/2 again',
      90_000,
      200,
    );
    // Let the refreshes of the new leaders run, then check that no symbol was forecast twice in one period
    // (two leaders refreshing it at once): consecutive forecasts of a symbol and horizon are a period apart.
    await new Promise((r) => setTimeout(r, 2 * REFRESH_MS));
    const times = await sql<{ symbol: string; generated_at: number }>`
      select symbol, generated_at from predictions where horizon = '1h' order by symbol, generated_at`.execute(
      handle.db,
    );
    const bySymbol = new Map<string, number[]>();
    for (const r of times.rows)
      bySymbol.set(r.symbol, [...(bySymbol.get(r.symbol) ?? []), Number(r.generated_at)]);
    for (const [symbol, list] of bySymbol) {
      // The walk-forward backfill writes past refresh points at start; the live ones are the recent ones.
      const live = list.filter((t) => t >= cutAt - 10 * REFRESH_MS);
      for (let i = 1; i < live.length; i++)
        expect(live[i]! - live[i - 1]!, `${symbol} forecast twice within a period`).toBeGreaterThanOrEqual(
          REFRESH_MS / 2,
        );
    }
  }, 300_000);
});
