import { describe, expect, it } from 'vitest';
import { partitionOf, partitionSymbols } from './partition.ts';

describe('market partitions', () => {
  it('one partition holds everything', () => {
    expect(partitionSymbols(['BTCUSDT', 'ETHUSDT'], 1)).toEqual([['BTCUSDT', 'ETHUSDT']]);
    expect(partitionOf('BTCUSDT', 1)).toBe(0);
  });

  it('depends on the symbol alone: adding or reordering symbols moves no other', () => {
    const base = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
    const before = new Map(base.map((s) => [s, partitionOf(s, 4)]));
    const grown = partitionSymbols(['AVAXUSDT', ...base.toReversed(), 'LINKUSDT'], 4);
    for (const [p, list] of grown.entries())
      for (const s of list) if (before.has(s)) expect(before.get(s)).toBe(p);
    // Fixed values: the hash is part of the deployment's contract (a change would move every symbol).
    expect(base.map((s) => partitionOf(s, 4))).toEqual([0, 0, 1, 1, 1, 3, 0]);
  });

  it('spreads a large universe roughly evenly', () => {
    const symbols = Array.from({ length: 4000 }, (_, i) => `S${i}USDT`);
    const sizes = partitionSymbols(symbols, 8).map((l) => l.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(4000);
    for (const n of sizes) expect(Math.abs(n - 500)).toBeLessThan(100);
  });
});
