import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { createMemoryPortfolioRepository } from './repository.ts';
import { IDEMPOTENCY_STALE_MS, IDEMPOTENCY_TTL_MS, createPortfolioService } from './service.ts';

function setup() {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const repo = createMemoryPortfolioRepository();
  const service = createPortfolioService({
    repo,
    clock,
    prices: {
      quote: (asset) => (asset === 'BTC' ? { price: 50_000, change24hPct: 10, asOf: clock.now() } : null),
    },
    extraAssets: () => ['BTC', 'ETH'],
  });
  return { clock, repo, service };
}

const json = (rows: Array<Record<string, string>>) => ({ kind: 'json' as const, rows, schemaProblems: [] });

describe('portfolio service', () => {
  it('releases the key when storage fails, so the retry stores the rows once', async () => {
    const { repo, service } = setup();
    const request = {
      accountId: 'a',
      body: json([{ asset: 'BTC', quantity: '1' }]),
      dryRun: false,
      idempotencyKey: 'k1',
    };
    repo.failNextImport = true;
    await expect(service.importRows(request)).rejects.toThrow('storage failed mid-import');
    expect(await repo.rows('a')).toHaveLength(0);
    const retry = await service.importRows(request);
    expect(retry).toMatchObject({ status: 201, replayed: false });
    const replay = await service.importRows(request);
    expect(replay).toEqual({ ...retry, replayed: true });
    expect(await repo.rows('a')).toHaveLength(1);
  });

  it('takes over a claim left running by a request that died, and forgets keys after 24 h', async () => {
    const { clock, repo, service } = setup();
    const request = {
      accountId: 'a',
      body: json([{ asset: 'ETH', quantity: '2' }]),
      dryRun: false,
      idempotencyKey: 'k2',
    };
    await repo.claimKey({
      accountId: 'a',
      key: 'k2',
      fingerprint: 'whatever',
      now: clock.now(),
      ttlMs: IDEMPOTENCY_TTL_MS,
      staleMs: IDEMPOTENCY_STALE_MS,
    });
    await expect(service.importRows(request)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    clock.advance(IDEMPOTENCY_STALE_MS);
    const first = await service.importRows(request);
    expect(first.status).toBe(201);
    clock.advance(IDEMPOTENCY_TTL_MS);
    const later = await service.importRows(request);
    expect(later.replayed).toBe(false);
    expect(JSON.parse(later.body)).toMatchObject({ inserted: 1 });
  });

  it('values holdings with exact sums, P&L and the 24 h change; unpriced assets stay null', async () => {
    const { service } = setup();
    await service.importRows({
      accountId: 'a',
      body: json([
        { asset: 'BTC', quantity: '0.1', costBasis: '4000' },
        { asset: 'BTC', quantity: '0.2', costBasis: '8000' },
        { asset: 'ETH', quantity: '1' },
      ]),
      dryRun: false,
    });
    const { holdings, totals } = await service.holdings('a');
    const btc = holdings.find((h) => h.asset === 'BTC')!;
    expect(btc.quantity).toBe('0.3');
    expect(btc.valueUsd!.toFixed(2)).toBe('15000.00');
    expect(btc.unrealizedPnlUsd!.toFixed(2)).toBe('3000.00');
    expect(btc.unrealizedPnlPct).toBe(25);
    expect(btc.change24hUsd!.toFixed(2)).toBe('1363.64');
    expect(holdings.find((h) => h.asset === 'ETH')).toMatchObject({
      price: null,
      valueUsd: null,
      allocationPct: null,
    });
    expect(totals.unpricedAssets).toEqual(['ETH']);
    expect(totals.assetsWithoutCost).toEqual(['ETH']);
    expect(btc.allocationPct).toBe(100);
  });
});
