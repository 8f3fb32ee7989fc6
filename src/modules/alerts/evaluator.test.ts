import { describe, expect, it } from 'vitest';
import { memoryBus } from '../../adapters/bus/memory.ts';
import { manualClock } from '../../shared/clock.ts';
import { createMemoryEventsRepository } from '../events/index.ts';
import { createEvaluator } from './evaluator.ts';
import { createMemoryAlertsRepository } from './repository.ts';
import type { PriceRule } from './rule.ts';

const T0 = Date.UTC(2026, 0, 1);
const silent = { info() {}, warn() {}, error() {} };

function rule(i: number, over: Partial<PriceRule>): PriceRule {
  return {
    id: `alr_${i}`,
    accountId: 'usr_1',
    name: `r${i}`,
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'crosses_above', value: 100_000 },
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
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

function setup() {
  const log = createMemoryEventsRepository();
  const repo = createMemoryAlertsRepository((events, at) =>
    events.map((e, i) =>
      log.add({
        id: `evt_${at}_${i}_${Math.random()}`,
        accountId: e.accountId,
        type: e.type,
        body: JSON.stringify(e.data),
        test: e.test ?? false,
        createdAt: at,
      }),
    ),
  );
  const clock = manualClock(T0);
  const evaluator = createEvaluator({ repo, bus: memoryBus(), clock, log: silent });
  const tick = (mid: number, at: number, symbol = 'BTCUSDT') =>
    evaluator.onSnapshot({ at, books: { [symbol]: { mid } }, open: {} });
  return { repo, log, clock, evaluator, tick };
}

describe('evaluator (memory repository)', () => {
  it('a price move visits only the rules whose threshold lies between the old and the new price', async () => {
    const { evaluator, tick } = setup();
    // 10,000 rules over 7 symbols; on BTCUSDT thresholds every 2 USD from 90,000.
    const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
    for (let i = 0; i < 10_000; i++) {
      const symbol = symbols[i % 7]!;
      const op = i % 2 ? 'crosses_above' : 'below';
      evaluator.apply(rule(i, { symbol, condition: { op, value: 90_000 + 2 * Math.floor(i / 7) } }), false);
    }
    tick(50_000, T0 + 1000); // first price: every BTC rule is reconciled once
    const afterFirst = evaluator.stats().visited;
    expect(afterFirst).toBe(Math.ceil(10_000 / 7));
    tick(50_010, T0 + 2000); // no threshold between: nothing visited
    expect(evaluator.stats().visited).toBe(afterFirst);
    tick(90_101, T0 + 3000); // thresholds 90,000…90,100: 51 BTC rules
    const crossed = evaluator.stats().visited - afterFirst;
    expect(crossed).toBe(51);
    await evaluator.idle();
  });

  it('records each firing once even when an event is evaluated twice (replayed message)', async () => {
    const { evaluator, tick, repo } = setup();
    evaluator.apply(rule(1, { trigger: { mode: 'every', cooldownSec: 1 } }), false);
    await repo.create(rule(1, { trigger: { mode: 'every', cooldownSec: 1 } }), 10);
    tick(99_000, T0 + 1000);
    tick(101_000, T0 + 2000);
    await evaluator.idle();
    // A second evaluator that does not know about the firing (as a concurrent worker would not) sees the same
    // tick: it decides to fire, and the trigger key refuses the duplicate.
    const again = createEvaluator({ repo, bus: memoryBus(), clock: manualClock(T0), log: silent });
    again.apply({ ...(await repo.get('usr_1', 'alr_1'))!, lastSatisfied: false, lastEventAt: null }, false);
    again.onSnapshot({ at: T0 + 2000, books: { BTCUSDT: { mid: 101_000 } }, open: {} });
    await again.idle();
    expect(again.stats()).toMatchObject({ fired: 1, recorded: 0 });
    expect(repo.triggers.size).toBe(1);
    expect((await repo.get('usr_1', 'alr_1'))?.triggerCount).toBe(1);
  });
});
