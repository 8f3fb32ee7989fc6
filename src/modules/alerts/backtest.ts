import type { MinuteBar } from './market-window.ts';
import type { CandleEvent, FlowEvent, SnapshotEvent } from './ports.ts';
import type { AlertRule, FlowRule, PriceRule, VolumeRule } from './rule.ts';
import { createRuleEngine } from './rule-engine.ts';

const MINUTE = 60_000;
const silent = { info() {}, warn() {}, error() {} };

/** One time the rule would have fired: when, and the value its condition compared. */
export interface BacktestFiring {
  at: number;
  value: number;
  /** Flow rules: the flow behind the firing. */
  flowId?: string;
}

/**
 * A closed 1-minute bar as the live evaluator hears it: the last tick of its minute (the close as the price,
 * the whole bar as the bar in progress), then the closed candle. The returned events are reused from one
 * bar to the next (the engine keeps none of them), which spares a 30-day replay most of its garbage.
 */
export function minuteTicker(
  symbol: string,
): (bar: MinuteBar) => { snapshot: SnapshotEvent; candle: CandleEvent } {
  const book = { mid: 0 };
  const open = [0, 0, 0, 0, 0, 0, 0];
  const snapshot: SnapshotEvent = { at: 0, books: { [symbol]: book }, open: { [symbol]: { '1m': open } } };
  const candle: CandleEvent = { symbol, interval: '1m', candle: { openTime: 0, close: 0, quoteVolume: 0 } };
  const events = { snapshot, candle };
  return (bar) => {
    snapshot.at = bar.openTime + MINUTE - 1;
    book.mid = bar.close;
    open[0] = bar.openTime;
    open[1] = open[2] = open[3] = open[4] = bar.close;
    open[6] = bar.quoteVolume;
    candle.candle = bar;
    return events;
  };
}

/** The rule engine of the live evaluator with a sink that lists firings, on a clock the replay moves. */
function replayEngine() {
  let now = 0;
  const firings: BacktestFiring[] = [];
  const engine = createRuleEngine({
    clock: { now: () => now },
    log: silent,
    sink: {
      fire: (_live, occasion) =>
        firings.push(
          occasion.flowId
            ? { at: occasion.at, value: occasion.value, flowId: occasion.flowId }
            : { at: occasion.at, value: occasion.value },
        ),
      side() {},
      dropSide() {},
    },
  });
  return { engine, firings, setNow: (ms: number) => (now = ms) };
}

/** A rule as a backtest holds it: unsaved, live from the window's start, never evaluated. */
export function backtestRule<R extends AlertRule>(rule: R, fromMs: number): R {
  return {
    ...rule,
    state: 'active',
    expiresAt: null,
    lastSatisfied: null,
    lastEventAt: null,
    createdAt: fromMs,
  };
}

/**
 * Replays stored 1-minute bars through the live evaluator's engine. `warmup`: the bars before the window
 * that its change and volume windows read (taken in as closed candles, as the live evaluator's start-up
 * backfill does); `bars`: the window's bars, oldest first, each as a tick then a closed candle.
 */
export function replayMarketRule(
  rule: PriceRule | VolumeRule,
  warmup: readonly MinuteBar[],
  bars: readonly MinuteBar[],
): BacktestFiring[] {
  const { engine, firings, setNow } = replayEngine();
  const tick = minuteTicker(rule.symbol);
  for (const bar of warmup) engine.onCandle(tick(bar).candle);
  engine.place(rule);
  for (const bar of bars) {
    const { snapshot, candle } = tick(bar);
    setNow(snapshot.at);
    engine.onSnapshot(snapshot);
    engine.onCandle(candle);
  }
  return firings;
}

/**
 * Replays stored flows (any order) of [fromMs, toMs) through the live evaluator's engine; time passes in
 * minute steps between flows (windows decay, cooldowns end), as the evaluator's sweep does every second.
 */
export function replayFlowRule(
  rule: FlowRule,
  flows: readonly FlowEvent[],
  fromMs: number,
  toMs: number,
): BacktestFiring[] {
  const { engine, firings, setNow } = replayEngine();
  engine.place(rule);
  const ordered = flows
    .filter((f) => f.timestamp >= fromMs && f.timestamp < toMs)
    .sort((a, b) => a.timestamp - b.timestamp);
  let minute = Math.ceil(fromMs / MINUTE) * MINUTE;
  const advanceTo = (at: number) => {
    for (; minute <= at; minute += MINUTE) {
      setNow(minute);
      engine.advance(minute);
    }
  };
  for (const flow of ordered) {
    advanceTo(flow.timestamp);
    setNow(flow.timestamp);
    engine.onFlow(flow, flow.timestamp);
  }
  advanceTo(toMs - 1);
  return firings;
}

export interface BacktestTotals {
  firings: number;
  first: number | null;
  last: number | null;
  /** Firings per UTC day of the window (days without one included, as 0). */
  perDay: Array<{ day: string; firings: number }>;
}

/** Totals of a backtest's firings over [fromMs, toMs). */
export function backtestTotals(
  firings: readonly BacktestFiring[],
  fromMs: number,
  toMs: number,
): BacktestTotals {
  const counts = new Map<string, number>();
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  for (let d = Math.floor(fromMs / 86_400_000) * 86_400_000; d < toMs; d += 86_400_000)
    counts.set(dayOf(d), 0);
  for (const f of firings) counts.set(dayOf(f.at), (counts.get(dayOf(f.at)) ?? 0) + 1);
  return {
    firings: firings.length,
    first: firings[0]?.at ?? null,
    last: firings.at(-1)?.at ?? null,
    perDay: [...counts].map(([day, n]) => ({ day, firings: n })),
  };
}
