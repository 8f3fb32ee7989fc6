import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { redisBus } from '../../src/adapters/bus/redis.ts';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { type MarketModule, buildMarket } from '../../src/app/market.ts';
import { loadConfig } from '../../src/config/env.ts';
import { type AppBus, type Topics, topicDecoders } from '../../src/app/bus-topics.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { openTestDatabase, redisUrl } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

type Item = {
  symbol: string;
  liquidity: { slippage: { notional: number; buyBps: number | null; sellBps: number | null } };
};

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
// Small, default-ish, large, and one no simulated book holds (→ null on both sides).
const NOTIONALS = [1_000, 25_000, 250_000, 2_000_000, 1e10];
const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;

const until = (what: string, ok: () => boolean, ms = 10_000) => waitUntil(ok, what, ms);

/**
 * A worker (runs the market job) and an API-only replica (does not) on one bus and one database: the
 * replica must answer every `notional` (and the bar in progress) exactly as the worker does.
 */
async function scenario(
  db: DbHandle,
  workerBus: AppBus,
  apiBus: AppBus,
  closers: Array<() => Promise<unknown>>,
) {
  const clock = manualClock(Date.UTC(2026, 0, 10, 12, 0, 30));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    MERIDIAN_MARKET_HISTORY_DAYS: '1',
    MERIDIAN_SYMBOLS: SYMBOLS.join(','),
  });
  const logger = createLogger('silent');
  // The replica's own clock is off by 3 h (as a replay's clock is, started at another moment).
  const apiClock = manualClock(clock.now() + 3 * 3_600_000);
  const worker: MarketModule = await buildMarket(config, { db, bus: workerBus, clock, logger });
  const api: MarketModule = await buildMarket(config, { db, bus: apiBus, clock: apiClock, logger });
  await worker.job.start();
  closers.push(() => worker.job.stop());
  await worker.service.windowsLoaded();
  // Freeze the books so the worker's later ticks (and re-publications) carry the same state.
  await worker.source.stop();
  worker.service.tickNow();
  expect(api.service.running()).toBe(false);
  await until('the replica to adopt the snapshot', () =>
    api.service.marketDataBytes().equals(worker.service.marketDataBytes()),
  );

  // It keeps the worker's market time (the default range of /api/market-history ends there).
  expect(api.service.now()).toBe(worker.service.now());

  let nulls = 0;
  let numbers = 0;
  for (const n of NOTIONALS) {
    const fromWorker = worker.service.marketDataBody(SYMBOLS, n);
    const fromApi = api.service.marketDataBody(SYMBOLS, n);
    const w = (JSON.parse(fromWorker) as { data: Item[] }).data;
    const a = (JSON.parse(fromApi) as { data: Item[] }).data;
    expect(a.map((d) => d.symbol)).toEqual(SYMBOLS);
    expect(a.map((d) => d.liquidity.slippage)).toEqual(w.map((d) => d.liquidity.slippage));
    for (const d of w) {
      expect(d.liquidity.slippage.notional).toBe(n);
      for (const bps of [d.liquidity.slippage.buyBps, d.liquidity.slippage.sellBps]) {
        if (bps === null) nulls++;
        else numbers++;
      }
      if (n === 1e10) expect(d.liquidity.slippage).toEqual({ notional: n, buyBps: null, sellBps: null });
    }
    // The whole body is the same bytes, and so is a symbol subset.
    expect(fromApi).toBe(fromWorker);
    expect(api.service.marketDataBody(['ETHUSDT'], n)).toBe(worker.service.marketDataBody(['ETHUSDT'], n));
  }
  expect(numbers).toBeGreaterThan(0);
  expect(nulls).toBe(SYMBOLS.length * 2);

  // The bar in progress: same open candle, and /api/market-history's range reaches it on both.
  const now = clock.now();
  for (const interval of INTERVALS) {
    const open = worker.service.openCandle('BTCUSDT', interval);
    expect(open).toBeDefined();
    expect(api.service.openCandle('BTCUSDT', interval)).toEqual(open);
    const q = { symbol: 'BTCUSDT', interval, fromMs: open!.openTime, toMs: now + 86_400_000 };
    expect((await api.service.candlesBetween(q)).at(-1)).toEqual(open);
  }
}

describe('market follower: custom notional and the bar in progress', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('answers ?notional= like the worker over the in-process bus', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    const bus = memoryBus<Topics>();
    await scenario(db, bus, bus, closers);
  });

  // Runs whenever Redis is reachable; with MERIDIAN_REQUIRE_SERVICES=1 the global setup fails instead of skipping.
  it.skipIf(!redisUrl())('answers ?notional= like the worker over the Redis bus', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    // A channel prefix of its own: other tests may publish market snapshots on the same Redis.
    const prefix = `meridian:test:${randomBytes(6).toString('hex')}:`;
    const clients = Array.from({ length: 4 }, () => new Redis(redisUrl()!));
    closers.push(async () => {
      for (const c of clients) c.disconnect();
    });
    const options = { decoders: topicDecoders, channelPrefix: prefix };
    const workerBus = redisBus<Topics>(clients[0]!, clients[1]!, options);
    const apiBus = redisBus<Topics>(clients[2]!, clients[3]!, options);
    closers.push(() => workerBus.close());
    closers.push(() => apiBus.close());
    await scenario(db, workerBus, apiBus, closers);
  });
});
