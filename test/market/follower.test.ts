import { afterAll, describe, expect, it, vi } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { createLogger } from '../../src/observability/logger.ts';
import type { Topics } from '../../src/app/bus-topics.ts';
import { buildMarket } from '../../src/app/market.ts';
import { loadConfig } from '../../src/config/env.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { snapshotMessage } from '../harness/bus.ts';
import { openTestDatabase } from '../harness/db.ts';

describe('market follower (API replicas without the market job)', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('serves the market-data body the worker publishes on the bus', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    const bus = memoryBus<Topics>();
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
    await worker.service.windowsLoaded();
    worker.service.tickNow(); // publishes (at most once a second, after the tick) with the serialized body
    expect(api.service.running()).toBe(false);
    // A publication waits for the once-a-second limit: up to a second after the start's own, more on a busy machine.
    await vi.waitFor(
      () => expect(api.service.marketDataBytes().equals(worker.service.marketDataBytes())).toBe(true),
      { timeout: 5_000 },
    );
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

  it('ignores snapshots from a leadership term older than the newest it has seen', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    const bus = memoryBus<Topics>();
    const clock = manualClock(Date.UTC(2026, 0, 10, 12, 0, 30));
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
      MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
    });
    const worker = await buildMarket(config, { db, bus, clock, logger: createLogger('silent') });
    const api = await buildMarket(config, { db, bus, clock, logger: createLogger('silent') });
    await worker.job.start({ job: 'market', term: 3, current: () => true });
    closers.push(() => worker.job.stop());
    await worker.service.windowsLoaded();
    // Freeze the books, so the leader's next publications (at most one a second) carry this tick's body.
    await worker.source.stop();
    worker.service.tickNow(); // the term-3 leader publishes its snapshot
    const fromCurrentLeader = worker.service.marketDataBytes().toString();
    await vi.waitFor(() => expect(api.service.marketDataBytes().toString()).toBe(fromCurrentLeader), {
      timeout: 5_000,
    });
    const priceOf = (symbol: string) =>
      (JSON.parse(api.service.marketDataBody([symbol])) as { data: Array<{ price: number }> }).data[0]?.price;
    const current = priceOf('BTCUSDT');
    const [btc, eth] = (JSON.parse(fromCurrentLeader) as { data: Array<{ price: number }> }).data;
    const body = (item: object | undefined, price: number) => JSON.stringify({ data: [{ ...item, price }] });
    // A deposed leader's late message (term 2) is ignored: once the next term-3 message has been adopted,
    // BTC still has the current leader's price.
    await bus.publish(
      topics.marketSnapshot,
      snapshotMessage({}, clock.now(), { body: body(btc, 1), term: 2 }),
    );
    await bus.publish(
      topics.marketSnapshot,
      snapshotMessage({}, clock.now(), { body: body(eth, 3), term: 3 }),
    );
    await vi.waitFor(() => expect(priceOf('ETHUSDT')).toBe(3));
    expect(priceOf('BTCUSDT')).toBe(current);
    // A newer term's message is adopted.
    await bus.publish(
      topics.marketSnapshot,
      snapshotMessage({}, clock.now(), { body: body(btc, 2), term: 4 }),
    );
    await vi.waitFor(() => expect(priceOf('BTCUSDT')).toBe(2));
  });
});
