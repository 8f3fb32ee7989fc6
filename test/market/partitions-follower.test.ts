import { afterAll, describe, expect, it, vi } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import type { Topics } from '../../src/app/bus-topics.ts';
import { buildMarket } from '../../src/app/market.ts';
import { type Config, loadConfig } from '../../src/config/env.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { snapshotMessage } from '../harness/bus.ts';
import { openTestDatabase } from '../harness/db.ts';

interface Item {
  symbol: string;
  price: number;
  updatedAt: string;
  venues: Array<{ stale: boolean }>;
}

/**
 * MERIDIAN_MARKET_PARTITIONS = 2 on the in-memory bus: each partition's market publishes its own symbols with its
 * partition and term; a follower (an API replica) puts the universe together, each partition's copy aging on
 * its own and each partition's newest term winning.
 */
describe('market follower with partitions', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('combines every partition, keeps the newest term per partition, shows a silent partition stale', async () => {
    const db = await openTestDatabase('pglite');
    closers.push(() => db.close());
    const bus = memoryBus<Topics>();
    const clock = manualClock(Date.UTC(2026, 0, 10, 12, 0, 30));
    // The config check wants PostgreSQL for partitions (leases); the modules themselves do not.
    const config: Config = {
      ...loadConfig({
        LOG_LEVEL: 'silent',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_MARKET_STALE_MS: '5000',
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT,XRPUSDT',
      }),
      marketPartitions: 2,
    };
    const log = createLogger('silent');
    const worker = await buildMarket(config, { db, bus, clock, logger: log });
    const api = await buildMarket(config, { db, bus, clock, logger: log });
    expect(worker.partitions).toEqual([
      ['BTCUSDT', 'ETHUSDT'],
      ['SOLUSDT', 'XRPUSDT'],
    ]);
    const term = (index: number, n: number) => ({ job: `market:${index}`, term: n, current: () => true });
    const p0 = await worker.buildPartition(0, term(0, 5));
    const p1 = await worker.buildPartition(1, term(1, 1));
    const published: Array<{ partition?: number; term: number; symbols: string[] }> = [];
    await bus.subscribe(topics.marketSnapshot, (m) =>
      published.push({
        partition: m.partition,
        term: m.term,
        symbols: JSON.parse(m.body).data.map((i: Item) => i.symbol),
      }),
    );
    for (const p of [p0, p1]) {
      await p.start(); // writes unfenced here (no lease rows): the publications carry the built term
      closers.push(() => p.stop());
      await p.windowsLoaded();
      p.tickNow();
    }
    const items = () => (JSON.parse(api.service.marketDataBytes().toString()) as { data: Item[] }).data;
    // Publications are at most once a second per publisher: past Vitest's 1 s default on a busy machine.
    await vi.waitFor(
      () => expect(items().map((i) => i.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT']),
      { timeout: 5_000 },
    );
    // Each publisher sends its own symbols, with its partition and term.
    expect(published).toContainEqual({ partition: 0, term: 5, symbols: ['BTCUSDT', 'ETHUSDT'] });
    expect(published).toContainEqual({ partition: 1, term: 1, symbols: ['SOLUSDT', 'XRPUSDT'] });
    await p0.stop();
    await p1.stop();

    // Terms are per partition: partition 1's term 1 is current although partition 0 is at term 5; a late
    // message of partition 0's older term 4 is ignored.
    const [btc, , sol] = items();
    const body = (item: Item, price: number, at: number) =>
      JSON.stringify({ data: [{ ...item, price, updatedAt: new Date(at).toISOString() }] });
    const send = (partition: number, termNo: number, item: Item, price: number) =>
      bus.publish(topics.marketSnapshot, {
        ...snapshotMessage({}, clock.now(), { body: body(item, price, clock.now()), term: termNo }),
        partition,
      });
    const priceOf = (symbol: string) => items().find((i) => i.symbol === symbol)?.price;
    await send(1, 1, sol!, 11);
    await send(0, 4, btc!, 4);
    expect(priceOf('SOLUSDT')).toBe(11);
    expect(priceOf('BTCUSDT')).toBe(btc!.price);

    // Partition 1 goes silent; partition 0 goes on. Past the staleness window only partition 1's symbols are
    // shown stale (every venue), partition 0's are fresh: never a frozen copy shown as fresh.
    clock.advance(10_000);
    await send(0, 5, btc!, 5);
    const now = items();
    const staleOf = (symbol: string) => now.find((i) => i.symbol === symbol)!.venues.every((v) => v.stale);
    expect(now.find((i) => i.symbol === 'BTCUSDT')!.price).toBe(5);
    expect(staleOf('BTCUSDT')).toBe(false);
    expect(staleOf('SOLUSDT')).toBe(true);
    expect(staleOf('XRPUSDT')).toBe(true);
    expect(api.service.freshness('SOLUSDT')!.venues.every((v) => v.stale)).toBe(true);
    expect(api.service.freshness('BTCUSDT')!.venues.some((v) => !v.stale)).toBe(true);
  });
});
