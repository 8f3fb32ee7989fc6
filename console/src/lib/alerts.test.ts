import { describe, expect, it } from 'vitest';
import { describeCondition, ruleBody, stateAction } from './alerts.ts';

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

  it('words funding, open-interest and liquidation rules with their units', () => {
    expect(
      describeCondition({ type: 'funding', symbol: 'BTCUSDT', condition: { op: 'above', value: 30 } }),
    ).toBe('BTCUSDT funding above 30 %/yr');
    expect(
      describeCondition({
        type: 'open_interest',
        symbol: 'ETHUSDT',
        condition: { op: 'below', value: -10, window: '4h' },
      }),
    ).toBe('ETHUSDT open interest change below -10 % in 4h');
    expect(
      describeCondition({
        type: 'liquidations',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 5e6, side: 'long', window: '1h' },
      }),
    ).toBe('BTCUSDT long liquidations above $5.00M in 1h');
    expect(
      describeCondition({
        type: 'liquidations',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 5e6, side: 'any', window: '24h' },
      }),
    ).toBe('BTCUSDT liquidations above $5.00M in 24h');
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

describe('ruleBody', () => {
  const form = (fields: Record<string, string | string[]>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields))
      for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
    return data;
  };

  it('builds a price rule, with a window only for change_pct, and leaves empty optional fields out', () => {
    expect(
      ruleBody(
        'price',
        form({ name: ' ', symbol: 'btc', op: 'crosses_above', value: '100000', window: '1h', mode: 'once' }),
      ),
    ).toEqual({
      type: 'price',
      symbol: 'btc',
      condition: { op: 'crosses_above', value: 100000 },
      trigger: { mode: 'once' },
      channels: { events: true, webhookIds: [] },
    });
    const change = ruleBody(
      'price',
      form({
        symbol: 'ETHUSDT',
        op: 'change_pct',
        value: '-5',
        window: '15m',
        mode: 'every',
        cooldownSec: '600',
        webhookIds: ['wh_1', 'wh_2'],
      }),
    );
    expect(change).toMatchObject({
      condition: { op: 'change_pct', value: -5, window: '15m' },
      trigger: { mode: 'every', cooldownSec: 600 },
      channels: { webhookIds: ['wh_1', 'wh_2'] },
    });
  });

  it('sends an empty number as NaN (JSON null) so the server names the field, and an expiry as ISO 8601', () => {
    const body = ruleBody(
      'volume',
      form({ symbol: 'SOLUSDT', value: '', window: '1h', mode: 'once', expiresAt: '2027-01-02T03:04' }),
    );
    expect(JSON.parse(JSON.stringify(body)).condition).toEqual({ op: 'above', value: null, window: '1h' });
    expect((body as { expiresAt: string }).expiresAt).toBe(new Date('2027-01-02T03:04').toISOString());
  });

  it('builds an address-flow rule with only the filters given', () => {
    expect(
      ruleBody(
        'address_flow',
        form({
          direction: 'out',
          minUsd: '2500000',
          exchange: 'binance',
          asset: '',
          address: '',
          window: '',
          mode: 'once',
        }),
      ),
    ).toEqual({
      type: 'address_flow',
      condition: { direction: 'out', minUsd: 2500000, exchange: 'binance' },
      trigger: { mode: 'once' },
      channels: { events: true, webhookIds: [] },
    });
  });
});

describe('stateAction', () => {
  it('pauses a live rule, resumes a paused one, and offers nothing on a final state', () => {
    expect(stateAction('active')).toBe('pause');
    expect(stateAction('failing')).toBe('pause');
    expect(stateAction('paused')).toBe('resume');
    expect(stateAction('triggered')).toBeUndefined();
    expect(stateAction('expired')).toBeUndefined();
  });
});
