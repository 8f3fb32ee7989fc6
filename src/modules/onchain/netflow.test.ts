import { describe, expect, it } from 'vitest';
import { createAddressBook } from './address-book.ts';
import type { Flow } from './classify.ts';
import { subtractDecimal } from './netflow.ts';
import { createMemoryOnchainRepository } from './repository.ts';
import { createOnchainService } from './service.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const book = createAddressBook([]);

function flow(
  n: number,
  direction: Flow['direction'],
  amountRaw: string,
  atMs: number,
  usd: number | null,
): Flow {
  return {
    chain: 'ethereum',
    txHash: `0x${n.toString(16)}`,
    txIndex: 0,
    logIndex: 0,
    blockNumber: n,
    blockHash: `0xb${n}`,
    timeMs: atMs,
    exchange: 'binance',
    direction,
    asset: 'USDT',
    tokenAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    amount: '0',
    amountRaw,
    decimals: 6,
    usdValue: usd,
    from: { address: '0x1', exchange: null, tag: null },
    to: { address: '0x2', exchange: 'binance', tag: null },
    labelVersion: 'v',
  };
}

describe('netflow series', () => {
  it('sums deposits and withdrawals per hour exactly, zero-fills empty buckets and marks uncovered ones as gaps', async () => {
    const repo = createMemoryOnchainRepository();
    const blocks = [0, 1, 2, 3].map((i) => ({
      number: i,
      hash: `0xb${i}`,
      parentHash: '0x',
      timestampMs: T0 + i * H,
    }));
    // The indexer has covered T0 .. T0+3h (its checkpoint); the 4th hour onwards is a gap.
    await repo.commit(
      'ethereum',
      blocks,
      [
        flow(1, 'deposit', '1000001', T0 + 10, 1),
        flow(2, 'deposit', '2', T0 + 20, null),
        flow(3, 'withdrawal', '3000000', T0 + 30, 3),
        flow(4, 'internal', '9', T0 + 40, 9),
        flow(5, 'withdrawal', '500000', T0 + 2 * H + 5, 0.5),
      ],
      T0,
    );
    const service = createOnchainService({
      repo,
      book,
      clock: { now: () => T0 + 5 * H },
      chains: [{ name: 'ethereum', source: 'simulated', staleMs: 60_000 }],
    });
    const page = await service.netflow({
      exchange: 'binance',
      asset: 'usdt',
      from: String(T0),
      to: String(T0 + 4 * H),
    });
    expect(page.data.map((b) => [b.inflow, b.outflow, b.netflow, b.netflowUsd, b.unpriced, b.gap])).toEqual([
      ['1.000003', '3', '-1.999997', -2, 1, false],
      ['0', '0', '0', 0, 0, false],
      ['0', '0.5', '-0.5', -0.5, 0, false],
      ['0', '0', '0', 0, 0, true],
    ]);
    const noAsset = await service.netflow({ interval: '1d', from: String(T0), to: String(T0 + H) });
    expect(noAsset.data).toHaveLength(1);
    expect(noAsset.data[0]).toMatchObject({
      inflow: null,
      inflowUsd: 1,
      outflowUsd: 3.5,
      flows: 4,
      gap: true,
    });
    await expect(service.netflow({ interval: '5m' })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(service.netflow({ chain: 'solana' })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(service.netflow({ from: '0', to: String(T0) })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('subtracts exact decimals', () => {
    expect(subtractDecimal('1.5', '0.25')).toBe('1.25');
    expect(subtractDecimal('0', '0.000000000000000001')).toBe('-0.000000000000000001');
    expect(subtractDecimal('10', '10')).toBe('0');
  });
});
