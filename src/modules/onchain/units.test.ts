import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits, usdValue } from './decimal.ts';

describe('exact token amounts', () => {
  it('formats raw units without floats or trailing zeros', () => {
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(10n ** 30n + 1n, 18)).toBe('1000000000000.000000000000000001');
    expect(formatUnits(-25n, 1)).toBe('-2.5');
    expect(formatUnits(42n, 0)).toBe('42');
  });

  it('round-trips every raw amount exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        fc.integer({ min: 0, max: 36 }),
        (raw, decimals) => {
          expect(parseUnits(formatUnits(raw, decimals), decimals)).toBe(raw);
        },
      ),
    );
  });

  it('rejects malformed or over-precise decimals', () => {
    expect(() => parseUnits('1.2345678', 6)).toThrow(/more than 6 decimals/);
    expect(() => parseUnits('1e5', 6)).toThrow(/not a decimal/);
  });

  it('prices in USD rounded to cents; no price means no value', () => {
    expect(usdValue('1.5', 2000.123)).toBe(3000.18);
    expect(usdValue('1', undefined)).toBeUndefined();
  });
});
