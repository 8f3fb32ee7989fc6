import { describe, expect, it } from 'vitest';
import { isStorageUnavailable } from './postgres-pool.ts';
import { connectBudgetExhausted, createConnectBudget } from './connect-budget.ts';

describe('the connection budget', () => {
  it('allows a burst, then openings at the refill rate only', () => {
    let now = 0;
    const budget = createConnectBudget({ burst: 20, perSecond: 2, now: () => now });
    const taken = (n: number) => Array.from({ length: n }, () => budget.take()).filter(Boolean).length;
    expect(taken(50)).toBe(20);
    now += 1_000;
    expect(taken(50)).toBe(2);
    now += 60_000; // refilled up to the burst, never beyond
    expect(taken(100)).toBe(20);
  });

  it('a refusal is a storage failure (503 with Retry-After), not a bad query', () => {
    expect(isStorageUnavailable(connectBudgetExhausted())).toBe(true);
  });
});
