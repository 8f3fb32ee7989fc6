import { describe, expect, it } from 'vitest';
import type { AlertRule, FlowCondition, PriceCondition } from './rule.ts';
import { placementOf, RuleIndex } from './rule-index.ts';

const fields = {
  accountId: 'usr_1',
  name: 'r',
  trigger: { mode: 'every' as const, cooldownSec: 60 },
  expiresAt: null,
  channels: { webhookIds: [], events: true },
  normalized: [],
  state: 'active' as const,
  version: 1,
  lastSatisfied: null,
  lastEventAt: null,
  lastTriggeredAt: null,
  triggerCount: 0,
  createdAt: 0,
  updatedAt: 0,
};
const price = (id: string, condition: PriceCondition): AlertRule => ({
  ...fields,
  id,
  type: 'price',
  symbol: 'BTCUSDT',
  condition,
});
const flow = (id: string, condition: FlowCondition): AlertRule => ({
  ...fields,
  id,
  type: 'address_flow',
  symbol: null,
  condition,
});

describe('placementOf', () => {
  it('puts each kind of rule on its series, on the side of the threshold it holds on', () => {
    expect(placementOf(price('a', { op: 'crosses_below', value: 90_000 }))).toEqual({
      key: 'p:BTCUSDT',
      sense: 'down',
      threshold: 90_000,
      domain: 'market',
    });
    expect(placementOf(price('b', { op: 'change_pct', value: -5, window: '1h' }))).toMatchObject({
      key: 'c:1h:BTCUSDT',
      sense: 'down',
    });
    expect(
      placementOf({
        ...fields,
        id: 'c',
        type: 'volume',
        symbol: 'ETHUSDT',
        condition: { op: 'above', value: 1e6, window: '5m' },
      }),
    ).toMatchObject({ key: 'v:5m:ETHUSDT', sense: 'up', threshold: 1e6 });
    expect(
      placementOf(flow('d', { direction: 'in', exchange: 'binance', minUsd: 1e6, window: '1h' })),
    ).toEqual({ key: 'f:x:binance|in|*:1h', sense: 'up', threshold: 1e6, domain: 'flow' });
    // A single-transfer flow rule has no series: it sits in its target's bucket.
    expect(placementOf(flow('e', { direction: 'out', address: '0xab', minUsd: 10 }))).toBeUndefined();
  });
});

describe('RuleIndex', () => {
  it('shares a series between rules on it and starts a price series from the last price seen', () => {
    const index = new RuleIndex();
    const occasion = { key: 'BTCUSDT@1', at: 1, value: 95_000, detail: () => ({}) };
    index.lastPrice.set('BTCUSDT', occasion);
    const a = index.add(price('a', { op: 'above', value: 100_000 }));
    const b = index.add(price('b', { op: 'crosses_below', value: 90_000 }));
    expect(a.series).toBe(b.series);
    expect(a.series?.value).toBe(95_000);
    expect(a.series?.occasion).toBe(occasion);
    expect(b.crossing).toBe(true);
    expect(a.crossing).toBe(false);
    expect(index.series.size).toBe(1);
    expect(a.series?.index.size).toBe(2);
  });

  it('finds single-transfer flow rules by target up to an amount, and forgets removed rules', () => {
    const index = new RuleIndex();
    const small = index.add(flow('s', { direction: 'in', exchange: 'okx', minUsd: 100 }));
    const big = index.add(flow('b', { direction: 'in', exchange: 'okx', minUsd: 10_000 }));
    index.add(flow('o', { direction: 'in', exchange: 'binance', minUsd: 1 }));
    expect(index.bucketUpTo('x:okx', 5_000)).toEqual([small]);
    expect(index.bucketUpTo('x:okx', 10_000)).toEqual([small, big]);
    expect(index.bucketUpTo('x:kraken', 1e9)).toEqual([]);
    index.remove(small);
    expect(small.gone).toBe(true);
    expect(index.lives.has('s')).toBe(false);
    expect(index.bucketUpTo('x:okx', 1e9)).toEqual([big]);
  });

  it('holds a windowed flow sum inclusively (at least minUsd) and a price strictly', () => {
    const index = new RuleIndex();
    const sum = index.add(flow('w', { direction: 'any', address: '0xab', minUsd: 500, window: '5m' }));
    expect(sum.series?.index.holds('up', 500, 500)).toBe(true);
    const level = index.add(price('p', { op: 'above', value: 500 }));
    expect(level.series?.index.holds('up', 500, 500)).toBe(false);
  });
});
