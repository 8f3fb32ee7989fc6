import { afterAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { createLogger } from '../../src/app/logger.ts';
import { buildMarket } from '../../src/app/market.ts';
import { loadConfig } from '../../src/config/env.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { openTestDatabase } from '../harness/db.ts';

describe('market follower (API replicas without the market job)', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('serves the market-data body the worker publishes on the bus', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    const bus = memoryBus();
    const clock = manualClock(Date.UTC(2026, 0, 10, 12, 0, 30));
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
      MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
    });
    const worker = await buildMarket(config, { db, bus, clock, logger: createLogger('silent') });
    const api = await buildMarket(config, { db, bus, clock, logger: createLogger('silent') });
    expect(api.service.marketDataBytes().toString()).toBe('{"data":[]}');
    await worker.job.start();
    closers.push(() => worker.job.stop());
    worker.service.tickNow(); // publishes (at most once a second) with the serialized body
    expect(api.service.running()).toBe(false);
    expect(api.service.marketDataBytes().equals(worker.service.marketDataBytes())).toBe(true);
    const symbols = (
      JSON.parse(api.service.marketDataBody(['ETHUSDT'])) as { data: Array<{ symbol: string }> }
    ).data;
    expect(symbols.map((d) => d.symbol)).toEqual(['ETHUSDT']);
    // The worker ignores its own publications.
    const before = worker.service.marketDataBytes();
    api.service.adoptMarketData('{"data":[]}');
    worker.service.adoptMarketData('{"data":[]}');
    expect(worker.service.marketDataBytes()).toBe(before);
  });
});
