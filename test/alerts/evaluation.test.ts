import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type AlertsService,
  type AlertsTables,
  createAlertsService,
  createEvaluator,
  createKyselyAlertsRepository,
  type Evaluator,
  type FlowHistory,
  type RuleInput,
} from '../../src/modules/alerts/index.ts';
import type { AlertsRepository } from '../../src/modules/alerts/repository.ts';
import {
  type AccountEvent,
  createKyselyEventsRepository,
  type EventsTables,
} from '../../src/modules/events/index.ts';
import {
  DEFAULT_SYMBOLS,
  createSupportedSymbols,
  normalizeExchange,
} from '../../src/modules/identifiers/index.ts';
import type { AppBus, Topics } from '../../src/app/bus-topics.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import type { LeaderTerm } from '../../src/shared/leadership.ts';
import type { FlowView } from '../../src/modules/onchain/index.ts';
import { snapshotMessage } from '../harness/bus.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: event bodies are checked field by field
type Json = any;

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const silent = { info() {}, warn() {}, error() {} };
let accounts = 0;

/** A market snapshot as the market job publishes it, for one symbol. */
const snapshot = (symbol: string, mid: number, at: number, open?: number[]) =>
  snapshotMessage({ [symbol]: mid }, at, { open: open ? { [symbol]: open } : {} });

describe.each(dbKinds())('alert evaluation on %s', (kind) => {
  let handle: DbHandle;
  let repo: AlertsRepository;
  let events: ReturnType<typeof createKyselyEventsRepository>;
  const clock = manualClock(T0);
  let bus: AppBus;
  let service: AlertsService;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    repo = createKyselyAlertsRepository(tablesOf<AlertsTables & EventsTables>(handle.db));
    events = createKyselyEventsRepository(tablesOf<EventsTables>(handle.db));
  });
  afterAll(async () => handle?.close());

  /** A fresh bus, service and started evaluator on the shared database (a "process"). */
  async function boot(
    options: { flowHistory?: FlowHistory; term?: LeaderTerm } = {},
  ): Promise<{ evaluator: Evaluator; announced: AccountEvent[] }> {
    bus = memoryBus<Topics>();
    service = createAlertsService({
      repo,
      bus,
      clock,
      symbols: createSupportedSymbols(DEFAULT_SYMBOLS),
      resolveExchange: (name) => normalizeExchange(name, { strict: true }).value,
      caps: { standard: 1000 },
    });
    const evaluator = createEvaluator({
      repo,
      bus,
      clock,
      log: silent,
      syncMs: 60_000,
      sweepMs: 60_000,
      flowHistory: options.flowHistory,
    });
    const announced: AccountEvent[] = [];
    await bus.subscribe(topics.accountEvent, (e) => announced.push(e));
    await evaluator.start(options.term);
    return { evaluator, announced };
  }

  const account = () => `usr_eval${++accounts}_${kind}`;

  async function rule(accountId: string, input: RuleInput, evaluator: Evaluator) {
    const view = await service.create({ accountId, plan: 'standard' }, input);
    // The evaluator loads a created rule on the change notice (a repository read).
    await waitUntil(() => evaluator.isWatching(view.id), 'the evaluator to watch the new rule', 5_000);
    return view;
  }

  async function drive(evaluator: Evaluator, path: Array<[symbol: string, mid: number, at: number]>) {
    for (const [symbol, mid, at] of path) {
      clock.set(at);
      await bus.publish(topics.marketSnapshot, snapshot(symbol, mid, at));
    }
    await evaluator.idle();
  }

  const bodies = async (accountId: string) =>
    (await events.listForAccount(accountId, 0, 1000)).map((e) => JSON.parse(e.body) as Json);

  it('crosses_above fires once per crossing, not per tick; every respects its cooldown', async () => {
    const { evaluator, announced } = await boot();
    const acc = account();
    const r = await rule(
      acc,
      {
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'crosses_above', value: 100_000 },
        trigger: { mode: 'every', cooldownSec: 60 },
      },
      evaluator,
    );
    const s = (k: number) => T0 + k * 1000;
    await drive(evaluator, [
      ['BTCUSDT', 99_000, s(1)], // first tick: sets the side (below), no firing
      ['BTCUSDT', 100_500, s(2)], // crossing 1 → fires
      ['BTCUSDT', 101_000, s(3)], // still above: nothing
      ['BTCUSDT', 102_000, s(4)],
      ['BTCUSDT', 99_500, s(5)], // back below
      ['BTCUSDT', 100_100, s(10)], // crossing 2, inside the 60 s cooldown → swallowed
      ['BTCUSDT', 99_000, s(20)],
      ['BTCUSDT', 100_000, s(70)], // touching the threshold is not above it
      ['BTCUSDT', 100_001, s(71)], // crossing 3, cooldown over → fires
      ['ETHUSDT', 200_000, s(72)], // another symbol: not this rule
    ]);
    const got = await bodies(acc);
    expect(got).toHaveLength(2);
    expect(got.map((b) => b.data.trigger.key)).toEqual([`BTCUSDT@${s(2)}`, `BTCUSDT@${s(71)}`]);
    expect(got[0]).toMatchObject({
      type: 'alert.triggered',
      version: 1,
      test: false,
      data: {
        rule: {
          id: r.id,
          type: 'price',
          symbol: 'BTCUSDT',
          condition: { op: 'crosses_above', value: 100_000 },
        },
        trigger: { value: 100_500, eventAt: new Date(s(2)).toISOString() },
        market: { symbol: 'BTCUSDT', price: 100_500 },
      },
    });
    expect(announced.filter((e) => e.accountId === acc).map((e) => e.id)).toEqual(got.map((b) => b.id));
    const view = await service.get(acc, r.id);
    expect(view.triggerCount).toBe(2);
    expect(view.state).toBe('active');
    await evaluator.stop();
  });

  it('once ends triggered after the first crossing; crosses_below and level rules too', async () => {
    const { evaluator } = await boot();
    const acc = account();
    const once = await rule(
      acc,
      { type: 'price', symbol: 'SOLUSDT', condition: { op: 'crosses_below', value: 150 } },
      evaluator,
    );
    const level = await rule(
      acc,
      {
        type: 'price',
        symbol: 'SOLUSDT',
        condition: { op: 'above', value: 160 },
        trigger: { mode: 'every', cooldownSec: 30 },
      },
      evaluator,
    );
    const path: Array<[string, number, number]> = [['SOLUSDT', 155, T0 + 1000]];
    for (let k = 0; k < 4; k++)
      path.push(['SOLUSDT', 149, T0 + (2 + 2 * k) * 1000], ['SOLUSDT', 151, T0 + (3 + 2 * k) * 1000]);
    // 95 s above 160, one tick a second: the level rule fires at 0, 30, 60, 90 s.
    for (let k = 0; k < 95; k++) path.push(['SOLUSDT', 161 + (k % 3), T0 + 20_000 + k * 1000]);
    await drive(evaluator, path);
    const got = await bodies(acc);
    const onceEvents = got.filter((b) => b.data.rule.id === once.id);
    expect(onceEvents).toHaveLength(1);
    expect(onceEvents[0].data.trigger.key).toBe(`SOLUSDT@${T0 + 2000}`);
    expect((await service.get(acc, once.id)).state).toBe('triggered');
    const levelKeys = got.filter((b) => b.data.rule.id === level.id).map((b) => b.data.trigger.key);
    expect(levelKeys).toEqual([0, 30, 60, 90].map((k) => `SOLUSDT@${T0 + 20_000 + k * 1000}`));
    // A triggered rule is final: it cannot be resumed or edited.
    await expect(
      service.update({ accountId: acc, plan: 'standard' }, once.id, { state: 'active' }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
    await evaluator.stop();
  });

  it('an evaluator whose leadership term is stale writes nothing: no firing, side or expiry stored', async () => {
    const job = `alerts-evaluator-${kind}`;
    await holdLease(handle.db, job, 5);
    const { evaluator, announced } = await boot({ term: believedTerm(job, 4) });
    const acc = account();
    clock.set(T0);
    const crossing = await rule(
      acc,
      {
        type: 'price',
        symbol: 'ADAUSDT',
        condition: { op: 'crosses_above', value: 1 },
        trigger: { mode: 'every', cooldownSec: 60 },
      },
      evaluator,
    );
    const expiring = await rule(
      acc,
      {
        type: 'price',
        symbol: 'DOGEUSDT',
        condition: { op: 'below', value: 1 },
        expiresAt: new Date(T0 + 10_000).toISOString(),
      },
      evaluator,
    );
    await drive(evaluator, [
      ['ADAUSDT', 0.9, T0 + 1000], // sets the side (a side write)
      ['ADAUSDT', 1.1, T0 + 2000], // crosses: a firing
      ['DOGEUSDT', 2, T0 + 11_000], // the sweep expires the other rule
    ]);
    expect(await bodies(acc)).toHaveLength(0);
    expect(announced.filter((e) => e.accountId === acc)).toHaveLength(0);
    expect((await repo.get(acc, crossing.id))?.lastSatisfied).toBeNull();
    expect((await repo.get(acc, expiring.id))?.state).toBe('active');
    await evaluator.stop();
  });

  it('expiresAt ends expired: no firing after it, the state says so', async () => {
    const { evaluator } = await boot();
    const acc = account();
    clock.set(T0);
    const r = await rule(
      acc,
      {
        type: 'price',
        symbol: 'XRPUSDT',
        condition: { op: 'below', value: 1 },
        expiresAt: new Date(T0 + 10_000).toISOString(),
      },
      evaluator,
    );
    await drive(evaluator, [
      ['XRPUSDT', 2, T0 + 1000],
      ['XRPUSDT', 2, T0 + 11_000], // the sweep on this tick expires it
      ['XRPUSDT', 0.5, T0 + 12_000], // would have fired
    ]);
    expect(await bodies(acc)).toHaveLength(0);
    const stored = await repo.get(acc, r.id);
    expect(stored?.state).toBe('expired');
    expect(evaluator.isWatching(r.id)).toBe(false);
    await evaluator.stop();
  });

  it('a restart does not refire: the side is persisted; a crossing across the restart gap fires once', async () => {
    let { evaluator } = await boot();
    const acc = account();
    const r = await rule(
      acc,
      {
        type: 'price',
        symbol: 'BNBUSDT',
        condition: { op: 'crosses_above', value: 600 },
        trigger: { mode: 'every', cooldownSec: 1 },
      },
      evaluator,
    );
    await drive(evaluator, [
      ['BNBUSDT', 590, T0 + 1000],
      ['BNBUSDT', 610, T0 + 2000], // fires
    ]);
    expect(await bodies(acc)).toHaveLength(1);
    await evaluator.stop();

    ({ evaluator } = await boot());
    await drive(evaluator, [
      ['BNBUSDT', 610, T0 + 2000], // the same snapshot again (a replayed message): no duplicate
      ['BNBUSDT', 615, T0 + 3000], // still above after the restart: not a crossing
      ['BNBUSDT', 590, T0 + 4000], // below — persisted
    ]);
    expect(await bodies(acc)).toHaveLength(1);
    expect((await repo.get(acc, r.id))?.lastSatisfied).toBe(false);
    await evaluator.stop();

    ({ evaluator } = await boot());
    // The price crossed while no evaluator ran: the first tick finds it above the persisted side → one firing.
    await drive(evaluator, [
      ['BNBUSDT', 620, T0 + 9000],
      ['BNBUSDT', 625, T0 + 10_000],
    ]);
    const got = await bodies(acc);
    expect(got.map((b) => b.data.trigger.key)).toEqual([`BNBUSDT@${T0 + 2000}`, `BNBUSDT@${T0 + 9000}`]);
    await evaluator.stop();
  });

  it('pausing stops evaluation; an edited condition starts from a fresh side', async () => {
    const { evaluator } = await boot();
    const acc = account();
    const r = await rule(
      acc,
      { type: 'price', symbol: 'ADAUSDT', condition: { op: 'crosses_above', value: 1 } },
      evaluator,
    );
    await drive(evaluator, [['ADAUSDT', 0.9, T0 + 1000]]);
    await service.update({ accountId: acc, plan: 'standard' }, r.id, { state: 'paused' });
    await waitUntil(() => !evaluator.isWatching(r.id), 'the evaluator to drop the rule', 5_000);
    await drive(evaluator, [['ADAUSDT', 1.1, T0 + 2000]]);
    expect(await bodies(acc)).toHaveLength(0);
    await service.update({ accountId: acc, plan: 'standard' }, r.id, {
      state: 'active',
      condition: { type: 'price', condition: { op: 'crosses_above', value: 1.2 } },
    });
    await waitUntil(() => evaluator.isWatching(r.id), 'the evaluator to watch the rule', 5_000);
    await drive(evaluator, [
      ['ADAUSDT', 1.15, T0 + 3000],
      ['ADAUSDT', 1.25, T0 + 4000],
    ]);
    const got = await bodies(acc);
    expect(got.map((b) => b.data.trigger.key)).toEqual([`ADAUSDT@${T0 + 4000}`]);
    await evaluator.stop();
  });

  it('volume and change_pct rules read the 1-minute bars of the window', async () => {
    const { evaluator } = await boot();
    const acc = account();
    const volume = await rule(
      acc,
      { type: 'volume', symbol: 'DOGEUSDT', condition: { op: 'above', value: 1_000_000, window: '5m' } },
      evaluator,
    );
    const change = await rule(
      acc,
      { type: 'price', symbol: 'DOGEUSDT', condition: { op: 'change_pct', value: -5, window: '15m' } },
      evaluator,
    );
    const minute = 60_000;
    const base = Math.floor(T0 / minute) * minute + 3_600_000;
    // 20 closed bars at 0.20 with 150k quote volume each.
    for (let k = 20; k >= 1; k--)
      await bus.publish(topics.marketCandle, {
        symbol: 'DOGEUSDT',
        venue: 'merged',
        interval: '1m',
        candle: {
          openTime: base - k * minute,
          open: 0.2,
          high: 0.2,
          low: 0.2,
          close: 0.2,
          volume: 1,
          quoteVolume: 150_000,
        },
      });
    const at = base + 30_000;
    // Window 5m = 4 closed bars (600k) + the bar in progress.
    await drive(evaluator, [['DOGEUSDT', 0.195, at]]);
    clock.set(at + 1000);
    await bus.publish(
      topics.marketSnapshot,
      snapshot('DOGEUSDT', 0.195, at + 1000, [base, 0.2, 0.2, 0.19, 0.195, 1, 300_000]),
    );
    await evaluator.idle();
    expect(await bodies(acc)).toHaveLength(0);
    clock.set(at + 2000);
    await bus.publish(
      topics.marketSnapshot,
      snapshot('DOGEUSDT', 0.188, at + 2000, [base, 0.2, 0.2, 0.18, 0.188, 1, 450_000]),
    );
    await evaluator.idle();
    const got = await bodies(acc);
    expect(got.map((b) => b.data.rule.id).sort()).toEqual([volume.id, change.id].sort());
    const v = got.find((b) => b.data.rule.id === volume.id);
    expect(v.data.market).toMatchObject({ symbol: 'DOGEUSDT', window: '5m', quoteVolume: 1_050_000 });
    const c = got.find((b) => b.data.rule.id === change.id);
    expect(c.data.market.changePct).toBeCloseTo(-6, 6);
    await evaluator.stop();
  });

  it('address_flow: single transfers and windowed sums fire; a reorg that removes the flow emits a follow-up', async () => {
    const { evaluator } = await boot();
    const acc = account();
    clock.set(T0); // rules see only transfers made after they were created
    const single = await rule(
      acc,
      {
        type: 'address_flow',
        condition: { direction: 'in', exchange: 'binance', asset: 'eth', minUsd: 1_000_000 },
      },
      evaluator,
    );
    const hot = '0x28c6c06298d514db089934071355e5743bf21d60';
    const windowed = await rule(
      acc,
      {
        type: 'address_flow',
        condition: {
          direction: 'out',
          address: hot.toUpperCase().replace('0X', '0x'),
          minUsd: 500_000,
          window: '1h',
        },
      },
      evaluator,
    );
    const flow = (n: number, over: Json) => ({
      id: `ethereum:0xtx${n}:${n}:binance`,
      chain: 'ethereum',
      txHash: `0xtx${n}`,
      logIndex: n,
      kind: 'token',
      blockNumber: 100 + n,
      blockHash: `0xb${n}`,
      time: new Date(T0 + 100_000 + n * 12_000).toISOString(),
      timestamp: T0 + 100_000 + n * 12_000,
      exchange: 'binance',
      direction: 'deposit',
      asset: 'ETH',
      tokenAddress: null,
      amount: '1',
      usdValue: 10,
      from: { address: '0x1111111111111111111111111111111111111111', exchange: null, label: null },
      to: { address: hot, exchange: 'binance', label: 'Binance 14' },
      ...over,
    });
    clock.set(T0 + 200_000);
    const flows = [
      flow(1, { usdValue: 2_000_000 }), // single: fires
      flow(2, { usdValue: 900_000 }), // single: below minUsd
      flow(3, { usdValue: 3_000_000, asset: 'USDT' }), // single: other asset
      flow(4, {
        usdValue: 300_000,
        direction: 'withdrawal',
        from: { address: hot },
        to: { address: '0x2222222222222222222222222222222222222222' },
      }),
      flow(5, {
        usdValue: 250_000,
        direction: 'withdrawal',
        from: { address: hot },
        to: { address: '0x2222222222222222222222222222222222222222' },
      }), // window sum 550k → fires
    ];
    for (const f of flows) await bus.publish(topics.onchainFlow, f);
    await evaluator.idle();
    let got = await bodies(acc);
    expect(got.map((b) => [b.type, b.data.rule.id, b.data.status, b.data.flow.id])).toEqual([
      ['onchain.flow', single.id, 'confirmed', flows[0]!.id],
      ['onchain.flow', windowed.id, 'confirmed', flows[4]!.id],
    ]);
    expect(got[1].data.window).toEqual({ window: '1h', sumUsd: 550_000, flows: 2 });
    expect((await service.get(acc, single.id)).state).toBe('triggered');

    // A reorg takes flow 1 away: a follow-up naming the original event.
    await bus.publish(topics.onchainFlowsRemoved, { chain: 'ethereum', ancestor: 100, ids: [flows[0]!.id] });
    await evaluator.idle();
    // Announced twice (a retry): still one follow-up.
    await bus.publish(topics.onchainFlowsRemoved, { chain: 'ethereum', ancestor: 100, ids: [flows[0]!.id] });
    await evaluator.idle();
    got = await bodies(acc);
    expect(got).toHaveLength(3);
    expect(got[2]).toMatchObject({
      type: 'onchain.flow',
      data: { status: 'removed', replaces: got[0].id, rule: { id: single.id }, removedFlowId: flows[0]!.id },
    });
    // The rule behind a firing is deleted, then its flow is reorged away: the follow-up still goes out.
    await service.remove(acc, windowed.id);
    await bus.publish(topics.onchainFlowsRemoved, { chain: 'ethereum', ancestor: 100, ids: [flows[4]!.id] });
    await evaluator.idle();
    got = await bodies(acc);
    expect(got).toHaveLength(4);
    expect(got[3]).toMatchObject({
      data: { status: 'removed', replaces: got[1].id, rule: { id: windowed.id } },
    });
    await evaluator.stop();
  });

  it('a windowed flow sum starts from the stored flows of its window after a restart', async () => {
    const acc = account();
    clock.set(T0 + 500_000);
    const target = '0x3333333333333333333333333333333333333333';
    const stored = (n: number, usd: number, at: number): FlowView => ({
      id: `ethereum:0xw${n}:0:binance`,
      chain: 'ethereum',
      txHash: `0xw${n}`,
      logIndex: 0,
      kind: 'token',
      blockNumber: 200 + n,
      blockHash: `0xbw${n}`,
      time: new Date(at).toISOString(),
      timestamp: at,
      exchange: 'binance',
      direction: 'withdrawal',
      asset: 'USDC',
      tokenAddress: null,
      amount: '1',
      usdValue: usd,
      from: { address: '0x28c6c06298d514db089934071355e5743bf21d60', exchange: 'binance', label: null },
      to: { address: target, exchange: null, label: null },
      labelVersion: null,
    });
    // Stored before this evaluator started: one inside the 15-minute window, one older than it.
    const history = [stored(1, 700_000, T0 + 450_000), stored(2, 5_000_000, T0 - 1_000_000)];
    const { evaluator } = await boot({
      flowHistory: { flowsSince: async (since) => history.filter((f) => f.timestamp > since) },
    });
    const r = await rule(
      acc,
      {
        type: 'address_flow',
        condition: { direction: 'in', address: target, minUsd: 1_000_000, window: '15m' },
      },
      evaluator,
    );
    await waitUntil(() => evaluator.stats().visited > 0, 'a rule visited', 5_000);
    await evaluator.idle();
    expect(await bodies(acc)).toHaveLength(0); // 700k so far
    await bus.publish(topics.onchainFlow, stored(3, 400_000, T0 + 499_000));
    await evaluator.idle();
    const got = await bodies(acc);
    expect(got).toHaveLength(1);
    expect(got[0].data).toMatchObject({ rule: { id: r.id }, window: { sumUsd: 1_100_000, flows: 2 } });
    await evaluator.stop();
  });

  it('a rule created through the service fires on the next tick (the change notice reaches the evaluator)', async () => {
    const { evaluator } = await boot();
    const acc = account();
    await drive(evaluator, [['ETHUSDT', 3000, T0 + 1000]]);
    const view = await service.create(
      { accountId: acc, plan: 'standard' },
      { type: 'price', symbol: 'eth', condition: { op: 'crosses_above', value: 3100 } },
    );
    await waitUntil(() => evaluator.isWatching(view.id), 'the evaluator to watch the new rule', 5_000);
    await drive(evaluator, [['ETHUSDT', 3200, T0 + 2000]]);
    const got = await bodies(acc);
    expect(got.map((b) => b.data.rule.id)).toEqual([view.id]);
    await evaluator.stop();
  });
});
