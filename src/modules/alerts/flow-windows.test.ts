import { describe, expect, it } from 'vitest';
import type { FlowEvent } from './ports.ts';
import { sidesOf, transferOf } from './flow-sides.ts';
import { FlowWindows } from './flow-windows.ts';
import type { Occasion } from './occasion.ts';
import { RuleIndex, type Series } from './rule-index.ts';

const MIN = 60_000;

const flowEvent = (id: string, at: number, usd: number, over: Partial<FlowEvent> = {}): FlowEvent => ({
  id: `${id}:binance`,
  chain: 'ethereum',
  txHash: `0x${id}`,
  logIndex: 0,
  timestamp: at,
  exchange: 'binance',
  direction: 'deposit',
  asset: 'usdt',
  usdValue: usd,
  from: { address: '0xAAA' },
  to: { address: '0xbbb' },
  ...over,
});

/** A 5-minute window of USDT deposits into binance, and every value it reported. */
function setup() {
  const index = new RuleIndex();
  const live = index.add({
    id: 'alr_w',
    accountId: 'usr_1',
    name: 'w',
    type: 'address_flow',
    symbol: null,
    condition: { direction: 'in', exchange: 'binance', asset: 'USDT', minUsd: 1_000, window: '5m' },
    trigger: { mode: 'every', cooldownSec: 60 },
    expiresAt: null,
    channels: { webhookIds: [], events: true },
    normalized: [],
    state: 'active',
    version: 1,
    lastSatisfied: null,
    lastEventAt: null,
    lastTriggeredAt: null,
    triggerCount: 0,
    createdAt: 0,
    updatedAt: 0,
  });
  const values: Array<{ value: number; occasion: Occasion }> = [];
  const windows = new FlowWindows((series: Series, value, occasion) => {
    series.value = value;
    series.occasion = occasion;
    values.push({ value, occasion });
  });
  const series = live.series!;
  const group = windows.ensure(
    { direction: 'in', exchange: 'binance', asset: 'USDT', minUsd: 1_000 },
    '5m',
    series,
  )!;
  return { windows, series, group, values };
}

describe('FlowWindows', () => {
  it('sums matching flows once per transfer, and lets them leave the window', () => {
    const { windows, values } = setup();
    const a = flowEvent('t1', 0, 600);
    windows.add(a, 'x:binance', 'in', 600, 0);
    windows.add(a, 'x:binance', 'in', 600, 0); // the same transfer again
    windows.add(flowEvent('t2', MIN, 300, { asset: 'ETH' }), 'x:binance', 'in', 300, MIN); // another asset
    windows.add(flowEvent('t3', 2 * MIN, 500), 'x:binance', 'out', 500, 2 * MIN); // the other direction
    windows.add(flowEvent('t4', 3 * MIN, 700), 'x:binance', 'in', 700, 3 * MIN);
    expect(values.map((v) => v.value)).toEqual([600, 1300]);
    expect(values[1]!.occasion).toMatchObject({ key: 'flow:t4:binance', at: 3 * MIN, flowId: 't4:binance' });
    expect(values[1]!.occasion.detail()).toMatchObject({ window: { window: '5m', sumUsd: 1300, flows: 2 } });
    windows.decayAll(5 * MIN); // t1 (at 0) is now 5 minutes old: out
    expect(values.at(-1)!.value).toBe(700);
    windows.decayAll(8 * MIN);
    expect(values.at(-1)!.value).toBe(0);
  });

  it('is told of a new group only once, and merges stored flows without counting one twice', () => {
    const { windows, series, group, values } = setup();
    expect(
      windows.ensure({ direction: 'in', exchange: 'binance', asset: 'USDT', minUsd: 5 }, '5m', series),
    ).toBeUndefined();
    windows.add(flowEvent('t1', 4 * MIN, 600), 'x:binance', 'in', 600, 4 * MIN);
    const stored = [
      flowEvent('t1', 4 * MIN, 600),
      flowEvent('t0', 2 * MIN, 250),
      flowEvent('old', -2 * MIN, 9_999),
      flowEvent('nousd', 3 * MIN, 0, { usdValue: null }),
    ];
    expect(windows.mergeStored(group, stored, 4 * MIN)).toBe(true);
    expect(values.at(-1)!.value).toBe(850);
    expect(group.flows.map((f) => f.transfer)).toEqual(['t0', 't1']);
    expect(windows.mergeStored(group, stored, 4 * MIN)).toBe(false);
  });

  it('takes out the flows a reorg removed', () => {
    const { windows, values } = setup();
    windows.add(flowEvent('t1', 0, 600), 'x:binance', 'in', 600, 0);
    windows.add(flowEvent('t2', MIN, 900), 'x:binance', 'in', 900, MIN);
    windows.remove(['t1:binance'], MIN);
    expect(values.at(-1)!.value).toBe(900);
    windows.remove(['unknown:binance'], MIN);
    expect(values).toHaveLength(3);
  });
});

describe('flow sides', () => {
  it('names the exchange and both addresses a flow concerns, with its direction for each', () => {
    const flow = flowEvent('t1', 0, 1);
    expect(transferOf(flow)).toBe('t1');
    expect(sidesOf(flow)).toEqual([
      ['x:binance', 'in'],
      ['a:0xbbb', 'in'],
      ['a:0xaaa', 'out'],
    ]);
  });
});
