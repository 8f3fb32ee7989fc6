import { describe, expect, it } from 'vitest';
import { createSimulatedChainSource } from '../../src/adapters/chain/simulated/simulated-source.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import {
  type FlowView,
  type OnchainTables,
  type OnchainTopics,
  createIndexer,
  createKyselyOnchainRepository,
  createOnchainService,
  loadAddressBook,
} from '../../src/modules/onchain/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

describe.each(dbKinds())('simulated chain (the embedded default) on %s', (kind) => {
  it('produces plausible labelled flows priced at the market, deterministic and resumable', async () => {
    const db = await openTestDatabase(kind);
    try {
      const clock = manualClock(Date.UTC(2026, 0, 1, 12));
      const book = loadAddressBook();
      const eth = 2500;
      const prices = { usdPrice: (asset: string) => (asset === 'ETH' ? eth : undefined) };
      const source = createSimulatedChainSource({ labels: book.labels(), prices, clock });
      const repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(db.db));
      const bus = memoryBus<OnchainTopics>();
      const seen: FlowView[] = [];
      await bus.subscribe(topics.onchainFlow, (p) => seen.push(p));
      const indexer = createIndexer({
        source,
        repo,
        book,
        prices,
        bus,
        clock,
        backfillBlocks: 150,
        batchSize: 100,
      });
      while ((await indexer.step()).kind !== 'idle') {}
      const service = createOnchainService({ repo, book, clock });
      const page = await service.listFlows({ limit: 500 });
      // Provenance: the newest indexed block's own time (the chain's clock), stale once it is too old.
      const head = await source.headNumber();
      const current = await service.provenance();
      expect(current).toMatchObject({ source: 'simulated', block: head, stale: false });
      expect(current.asOf).toBeLessThanOrEqual(clock.now());
      expect(clock.now() - current.asOf!).toBeLessThan(12_000);
      clock.advance(181_000);
      expect(await service.provenance()).toMatchObject({ asOf: current.asOf, block: head, stale: true });
      clock.advance(-181_000);
      expect(page.data.length).toBeGreaterThan(150); // ~2 per block over 150 blocks, plus cross-exchange pairs
      expect(seen).toHaveLength(page.data.length);
      for (const f of page.data) {
        expect(['binance', 'coinbase', 'kraken', 'okx']).toContain(f.exchange);
        expect(f.amount).toMatch(/^\d+(\.\d+)?$/);
        const unit = f.asset === 'USDT' || f.asset === 'USDC' ? 1 : eth;
        expect(f.usdValue).toBeCloseTo(Number(f.amount) * unit, 1);
        expect(f.usdValue as number).toBeGreaterThan(1);
      }
      const directions = new Set(page.data.map((f) => f.direction));
      expect(directions).toEqual(new Set(['deposit', 'withdrawal', 'internal']));
      const h1 = page.summary['1h'];
      expect(h1.inflowUsd).toBeGreaterThan(0);
      expect(h1.netflowUsd).toBeCloseTo(h1.inflowUsd - h1.outflowUsd, 2);

      // Deterministic: the same block twice is identical; a restart (new source) resumes without duplicates.
      const interest = () => true;
      expect(await source.block(1000, interest)).toEqual(await source.block(1000, interest));
      clock.advance(60_000); // 5 new blocks
      const again = createIndexer({
        source: createSimulatedChainSource({ labels: book.labels(), prices, clock }),
        repo,
        book,
        prices,
        clock,
      });
      while ((await again.step()).kind !== 'idle') {}
      const after = await service.listFlows({ limit: 500 });
      expect(new Set(after.data.map((f) => f.id)).size).toBe(after.data.length);
      expect(after.data.length).toBeGreaterThanOrEqual(page.data.length);

      // Cursor pagination stays stable while new blocks arrive on top.
      const first = await service.listFlows({ limit: 20 });
      clock.advance(120_000);
      while ((await again.step()).kind !== 'idle') {}
      const second = await service.listFlows({ limit: 20, cursor: first.nextCursor as string });
      const fresh = await service.listFlows({ limit: 500 });
      const ids = fresh.data.map((f) => f.id);
      const startAt = ids.indexOf(first.data.at(-1)?.id as string);
      expect(second.data.map((f) => f.id)).toEqual(ids.slice(startAt + 1, startAt + 21));
    } finally {
      await db.close();
    }
  });
});
