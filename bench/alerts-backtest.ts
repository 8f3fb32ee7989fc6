import { memoryBus } from '../src/adapters/bus/memory.ts';
import { runBacktest } from '../src/modules/alerts/backtest-run.ts';
import { createEvaluator } from '../src/modules/alerts/evaluator.ts';
import type { MinuteBar } from '../src/modules/alerts/market-window.ts';
import type { BacktestSources } from '../src/modules/alerts/ports.ts';
import { createMemoryAlertsRepository } from '../src/modules/alerts/repository.ts';
import type { PriceRule } from '../src/modules/alerts/rule.ts';
import { manualClock } from '../src/shared/clock.ts';

/**
 * Backtest of one price rule over 30 days of 1-minute candles (43,200 bars, a seeded random walk around
 * 100,000): the whole backtest (window checks, replay through the rule engine, totals, the answer), bars
 * given in memory so that storage reads are not measured. Baseline in the same run: the live evaluator (memory
 * repository) fed the same bars as snapshot ticks and closed candles — what a replay costs without the
 * backtest's storage-free engine. Target: ≤ 200 ms per backtest (median of 15 runs).
 */
const DAYS = 30;
const MINUTE = 60_000;
const START = Date.UTC(2026, 0, 1);
const RUNS = 15;

function walk(): MinuteBar[] {
  let seed = 7;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  let price = 100_000;
  return Array.from({ length: (DAYS + 1) * 1440 }, (_, i) => {
    price *= 1 + (random() - 0.5) * 0.002;
    return { openTime: START + i * MINUTE, close: price, quoteVolume: 1_000_000 * (0.5 + random()) };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run() {
  console.log(`\nAlert backtest — one price rule, ${DAYS} days of 1-minute candles`);
  const bars = walk();
  const from = START + MINUTE * 1440;
  const to = from + DAYS * 86_400_000;
  const inRange = (a: number, b: number) => bars.filter((x) => x.openTime >= a && x.openTime < b);
  const sources: BacktestSources = {
    minuteBars: async (_symbol, a, b) => inRange(a, b),
    marketHistory: () => ({ from: START, backfilling: false }),
    flowsBetween: async () => ({ flows: [], complete: true, source: 'none' }),
    marketSource: 'bench',
  };
  const rule: PriceRule = {
    id: 'alr_bench',
    accountId: 'usr_bench',
    name: 'bench',
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'crosses_above', value: 100_000 },
    trigger: { mode: 'every', cooldownSec: 900 },
    expiresAt: null,
    channels: { webhookIds: [], events: true },
    normalized: [],
    state: 'active',
    version: 1,
    lastSatisfied: null,
    lastEventAt: null,
    lastTriggeredAt: null,
    triggerCount: 0,
    createdAt: from,
    updatedAt: from,
  };
  const window = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };

  const backtestTimes: number[] = [];
  let firings = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const result = await runBacktest(rule, window, sources, to);
    backtestTimes.push(performance.now() - t0);
    firings = result.totals.firings;
  }

  const liveTimes: number[] = [];
  let liveFirings = 0;
  for (let i = 0; i < 5; i++) {
    const repo = createMemoryAlertsRepository(() => []);
    const clock = manualClock(from);
    const evaluator = createEvaluator({
      repo,
      bus: memoryBus(),
      clock,
      log: { info() {}, warn() {}, error() {} },
    });
    await repo.create(rule, 10);
    const t0 = performance.now();
    evaluator.apply(rule, false);
    for (const bar of inRange(from, to)) {
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
    liveTimes.push(performance.now() - t0);
    liveFirings = [...repo.triggers.values()].filter((t) => t.kind === 'fire').length;
  }

  const b = median(backtestTimes);
  const l = median(liveTimes);
  const fastest = Math.min(...backtestTimes);
  console.log(
    `backtest (${DAYS * 1440} bars, ${firings} firings)   median ${b.toFixed(1)} ms, fastest ${fastest.toFixed(1)} ms over ${RUNS} runs`,
  );
  console.log(`live evaluator, same bars (${liveFirings} firings)   median ${l.toFixed(1)} ms over 5 runs`);
  console.log(`ratio backtest/live evaluator: ${(b / l).toFixed(3)}`);
  console.log(`same firings as the live evaluator: ${firings === liveFirings ? 'yes' : 'NO'}`);
  console.log(`target ≤ 200 ms per backtest: ${b <= 200 ? 'met' : 'NOT met'}`);
  return { backtestMs: b, liveMs: l, ratio: b / l, firings };
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
