import fc from 'fast-check';
import { formatUnits, parseUnits } from 'viem/utils';
import { describe, expect, it } from 'vitest';
import { usdValue } from './usd-value.ts';

/** What flows rely on from viem's unit helpers (they replaced a hand-written copy). */
describe('exact token amounts (viem formatUnits / parseUnits)', () => {
  it('formats raw units without floats or trailing zeros, negatives included', () => {
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(10n ** 30n + 1n, 18)).toBe('1000000000000.000000000000000001');
    expect(formatUnits(-25n, 1)).toBe('-2.5');
    expect(formatUnits(-1n, 18)).toBe('-0.000000000000000001');
    expect(formatUnits(42n, 0)).toBe('42');
  });

  it('round-trips every raw amount exactly, negatives included (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 256n) + 1n, max: 2n ** 256n - 1n }),
        fc.integer({ min: 0, max: 36 }),
        (raw, decimals) => {
          expect(parseUnits(formatUnits(raw, decimals), decimals)).toBe(raw);
        },
      ),
    );
  });

  it('parseUnits rounds extra decimals half away from zero (the old copy refused them) and refuses non-decimals', () => {
    expect(parseUnits('1.2345675', 6)).toBe(1_234_568n);
    expect(parseUnits('-1.2345675', 6)).toBe(-1_234_568n);
    expect(parseUnits('1.2345674', 6)).toBe(1_234_567n);
    expect(() => parseUnits('1e5', 6)).toThrow();
  });

  it('prices in USD rounded to cents; no price means no value', () => {
    expect(usdValue('1.5', 2000.123)).toBe(3000.18);
    expect(usdValue('1', undefined)).toBeUndefined();
  });
});
