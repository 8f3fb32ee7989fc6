import { describe, expect, it } from 'vitest';
import { describeCondition } from './alerts.ts';

describe('describeCondition', () => {
  it('words price rules, including a percentage change window', () => {
    expect(
      describeCondition({
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'crosses_above', value: 100000 },
      }),
    ).toBe('BTCUSDT crosses above 100,000.00');
    expect(
      describeCondition({
        type: 'price',
        symbol: 'ETHUSDT',
        condition: { op: 'change_pct', value: -5, window: '1h' },
      }),
    ).toBe('ETHUSDT falls 5 % within 1h');
  });

  it('words volume and address-flow rules', () => {
    expect(
      describeCondition({
        type: 'volume',
        symbol: 'SOLUSDT',
        condition: { op: 'above', value: 5e7, window: '24h' },
      }),
    ).toBe('SOLUSDT volume above $50.00M in 24h');
    expect(
      describeCondition({
        type: 'address_flow',
        condition: { direction: 'in', minUsd: 1e6, exchange: 'binance', asset: 'USDT' },
      }),
    ).toBe('USDT into binance ≥ $1.00M per transfer');
    expect(
      describeCondition({
        type: 'address_flow',
        condition: { direction: 'any', minUsd: 2500, address: '0x1234567890abcdef1234', window: '1h' },
      }),
    ).toBe('Any asset to or from 0x1234…1234 ≥ $2500.00 over 1h');
  });
});
