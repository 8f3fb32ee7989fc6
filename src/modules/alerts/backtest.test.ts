import { describe, expect, it } from 'vitest';
import { memoryBus } from '../../adapters/bus/memory.ts';
import { manualClock } from '../../shared/clock.ts';
import { backtestTotals } from './backtest.ts';
import { runBacktest } from './backtest-run.ts';
import { createEvaluator } from './evaluator.ts';
import type { MinuteBar } from './market-window.ts';
import type { BacktestSources, FlowEvent } from './ports.ts';
import { createMemoryAlertsRepository } from './repository.ts';
import type { AlertRule, FlowRule, PriceRule, VolumeRule } from './rule.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 1);
const silent = { info() {}, warn() {}, error() {} };

/** Two days of 1-minute bars: a slow wave around 100,000 with a faster ripple; volume peaks midday. */
const bars: MinuteBar[] = Array.from({ length: 2 * 1440 }, (_, i) => ({
  openTime: START + i * MINUTE,
  close: 100_000 + 1_500 * Math.sin(i / 300) + 400 * Math.sin(i / 17),
  quoteVolume: 1_000_000 * (1 + Math.sin((i / 1440) * 2 * Math.PI)) + (i % 7) * 10_000,
}));
const FROM = START + DAY; // a day of history before the window
const TO = START + 2 * DAY;

const base = {
  accountId: 'usr_1',
  name: 'r',
  expiresAt: null,
  channels: { webhookIds: [], events: true },
  normalized: [],
  state: 'active' as const,
  version: 1,
  lastSatisfied: null,
  lastEventAt: null,
  lastTriggeredAt: null,
  triggerCount: 0,
  createdAt: FROM,
  updatedAt: FROM,
};

const rules: Array<PriceRule | VolumeRule> = [
  {
    ...base,
    id: 'alr_cross',
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'crosses_above', value: 101_000 },
    trigger: { mode: 'every', cooldownSec: 3600 },
  },
  {
    ...base,
    id: 'alr_below',
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'below', value: 99_000 },
    trigger: { mode: 'every', cooldownSec: 900 },
  },
  {
    ...base,
    id: 'alr_change',
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'change_pct', value: -0.8, window: '1h' },
    trigger: { mode: 'every', cooldownSec: 1800 },
  },
  {
    ...base,
    id: 'alr_volume',
    type: 'volume',
    symbol: 'BTCUSDT',
    condition: { op: 'above', value: 30_000_000, window: '15m' },
    trigger: { mode: 'every', cooldownSec: 600 },
  },
  {
    ...base,
    id: 'alr_once',
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'crosses_below', value: 99_500 },
    trigger: { mode: 'once', cooldownSec: 300 },
  },
];

const inRange = (from: number, to: number) => bars.filter((b) => b.openTime >= from && b.openTime < to);

function sources(flows: FlowEvent[] = []): BacktestSources {
  return {
    minuteBars: async (_symbol, from, to) => inRange(from, to),
    marketHistory: () => ({ from: START, backfilling: false }),
    flowsBetween: async () => ({ flows, complete: true, source: 'simulated' }),
    marketSource: 'simulated',
  };
}

/** The live evaluator with a memory repository, fed each bar as a snapshot tick then a closed candle. */
async function liveFirings(rule: AlertRule): Promise<Array<{ at: number; value: number }>> {
  const repo = createMemoryAlertsRepository(() => []);
  const clock = manualClock(FROM);
  const evaluator = createEvaluator({
    repo,
    bus: memoryBus(),
    clock,
    log: silent,
    history: { minuteBars: async (_symbol, from, to) => inRange(from, to) },
  });
  await repo.create(rule, 10);
  evaluator.apply(rule, false);
  await new Promise((resolve) => setTimeout(resolve, 0)); // the start-up backfill of its windows
  for (const bar of inRange(FROM, TO)) {
    const at = bar.openTime + MINUTE - 1;
    clock.set(at);
    const c = bar.close;
    evaluator.onSnapshot({
      at,
      books: { BTCUSDT: { mid: c } },
      open: { BTCUSDT: { '1m': [bar.openTime, c, c, c, c, 0, bar.quoteVolume] } },
    });
    evaluator.onCandle({ symbol: 'BTCUSDT', interval: '1m', candle: bar });
  }
  await evaluator.idle();
  return [...repo.triggers.values()]
    .filter((t) => t.kind === 'fire')
    .map((t) => ({ at: t.eventAt, value: t.value! }))
    .sort((a, b) => a.at - b.at);
}

describe('alert backtest', () => {
  it.each(rules.map((r) => [r.id, r] as const))(
    'backtest equals replay: %s fires at the same times as the live evaluator fed the same candles',
    async (_id, rule) => {
      const live = await liveFirings(rule);
      const result = await runBacktest(rule, { from: new Date(FROM).toISOString() }, sources(), TO);
      expect(live.length).toBeGreaterThan(0);
      if (rule.trigger.mode === 'once') expect(live).toHaveLength(1);
      expect(result.firings.map((f) => ({ at: Date.parse(f.at), value: f.value }))).toEqual(live);
      expect(result.totals.firings).toBe(live.length);
      expect(result.totals.first).toBe(new Date(live[0]!.at).toISOString());
      expect(result.data).toMatchObject({ candles: 1440, missingMinutes: 0, simulated: true });
    },
  );

  it('a cooldown spaces level firings: consecutive firings of an every-rule are at least the cooldown apart', async () => {
    const rule = rules[1]!;
    const result = await runBacktest(rule, { days: 1 }, sources(), TO);
    const times = result.firings.map((f) => Date.parse(f.at));
    expect(times.length).toBeGreaterThan(2);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(900_000);
    for (const f of result.firings) expect(f.value).toBeLessThan(99_000);
  });

  it('refuses a window beyond the stored history, naming the field and where history starts', async () => {
    const rule = rules[0]!;
    const early = { ...sources(), marketHistory: () => ({ from: FROM, backfilling: true }) };
    await expect(runBacktest(rule, { days: 2 }, early, TO)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/query/days', message: expect.stringContaining('2026-03-02T00:00:00.000Z') }],
    });
    await expect(runBacktest(rule, { days: 40 }, sources(), TO)).rejects.toMatchObject({
      errors: [{ pointer: '/query/days', message: expect.stringContaining('31 days') }],
    });
    await expect(
      runBacktest(rule, { from: '2026-03-02T12:00:00Z', to: '2026-03-02T00:00:00Z' }, sources(), TO),
    ).rejects.toMatchObject({ errors: [{ pointer: '/query/from' }] });
  });

  it('replays stored flows for a windowed flow rule: a firing when the 1h sum reaches minUsd', async () => {
    const flow = (i: number, minute: number, usd: number): FlowEvent => ({
      id: `0xf${i}:0:binance`,
      chain: 'ethereum',
      txHash: `0xf${i}`,
      logIndex: 0,
      timestamp: FROM + minute * MINUTE,
      exchange: 'binance',
      direction: 'deposit',
      asset: 'USDT',
      usdValue: usd,
      from: { address: `0x${'a'.repeat(40)}` },
      to: { address: `0x${'b'.repeat(40)}` },
    });
    // 400k + 400k within the hour reach 750k at minute 40; the sum holds until the first flow leaves the
    // window at minute 70, so the rule fires again each time its 5-minute cooldown ends until then. 400k
    // three hours later alone does not reach it.
    const flows = [flow(1, 10, 400_000), flow(2, 40, 400_000), flow(3, 240, 400_000)];
    const rule: FlowRule = {
      ...base,
      id: 'alr_flow',
      type: 'address_flow',
      symbol: null,
      condition: { direction: 'in', exchange: 'binance', minUsd: 750_000, window: '1h' },
      trigger: { mode: 'every', cooldownSec: 300 },
    };
    const result = await runBacktest(rule, { days: 1 }, sources(flows), FROM + DAY);
    expect(result.firings).toEqual(
      [40, 45, 50, 55, 60, 65].map((m) => ({
        at: new Date(FROM + m * MINUTE).toISOString(),
        value: 800_000,
        flowId: '0xf2:0:binance',
      })),
    );
    expect(result.data).toMatchObject({ flows: 3, complete: true });
  });

  it('totals count firings per UTC day, days without one as 0', () => {
    const t = backtestTotals(
      [
        { at: FROM + 1000, value: 1 },
        { at: FROM + 2000, value: 2 },
      ],
      FROM,
      FROM + 2 * DAY,
    );
    expect(t).toEqual({
      firings: 2,
      first: FROM + 1000,
      last: FROM + 2000,
      perDay: [
        { day: '2026-03-02', firings: 2 },
        { day: '2026-03-03', firings: 0 },
      ],
    });
  });
});
