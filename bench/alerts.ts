import { run as runDelivery } from './alerts-delivery.ts';
import { memoryBus } from '../src/adapters/bus/memory.ts';
import { simulatedSource } from '../src/adapters/market/simulated/index.ts';
import { createEvaluator } from '../src/modules/alerts/evaluator.ts';
import { createMemoryAlertsRepository } from '../src/modules/alerts/repository.ts';
import type { AlertRule, PriceOp, RuleWindow } from '../src/modules/alerts/rule.ts';
import { WINDOW_MS } from '../src/modules/alerts/rule.ts';
import { createMemoryEventsRepository } from '../src/modules/events/index.ts';
import { MarketEngine } from '../src/modules/market/engine.ts';
import type { CandleClosed, MarketEvent } from '../src/modules/market/index.ts';
import { DEFAULT_SYMBOLS } from '../src/modules/symbols/index.ts';
import { manualClock } from '../src/shared/clock.ts';

/**
 * Alert evaluation cost per market tick. The simulated market (7 symbols × 4 venues) runs through the real
 * market engine for 30 minutes of market time after a 2-hour warm-up; every second of market time becomes a
 * `market.snapshot` payload (merged mids, bars in progress) and every closed merged minute a `market.candle`,
 * exactly what the worker publishes. 10,000 active rules over the 7 symbols — price crossings, levels,
 * change_pct and volume windows, thresholds within ±3 % of the price, `every` with a 300 s cooldown — are
 * evaluated by the real evaluator (memory repository: the writes are queued, not awaited; their cost is not
 * part of a tick).
 *
 * Baseline in the same run: a full scan — for each tick, every rule compared with its series value and its
 * previous state — on the very same series values, i.e. what evaluation costs without the threshold index.
 * Target: ≤ 1 ms per tick for the evaluator.
 */
const RULES = Number(process.env.BENCH_ALERT_RULES ?? 10_000);
const START = Date.UTC(2026, 0, 5);
const WARMUP_MIN = 120;
const MEASURE_S = 1_800;

interface Tick {
  snapshot: {
    symbols: string[];
    at: number;
    books: Record<string, { mid: number }>;
    open: Record<string, Record<string, number[]>>;
  };
  candles: CandleClosed[];
}

function simulate(): { ticks: Tick[]; warmCandles: CandleClosed[]; mids: Record<string, number> } {
  const source = simulatedSource({ symbols: DEFAULT_SYMBOLS, seed: 3, clock: { now: () => START } });
  const engine = new MarketEngine({
    symbols: DEFAULT_SYMBOLS,
    venues: source.venues,
    staleMs: 15_000,
    outlierBps: 100,
    notional: 100_000,
    graceMs: 2_000,
    memoryDays: 1,
  });
  let candles: CandleClosed[] = [];
  engine.onCandleClosed((e) => {
    if (e.venue === 'merged' && e.interval === '1m') candles.push(e);
  });
  const ticks: Tick[] = [];
  let warmCandles: CandleClosed[] = [];
  const total = WARMUP_MIN * 60 + MEASURE_S;
  for (let s = 0; s < total; s++) {
    const at = START + s * 1000;
    for (let q = 0; q < 4; q++) source.tickAt(at + q * 250, (e: MarketEvent) => engine.ingest(e));
    engine.tick(at);
    if (s === WARMUP_MIN * 60 - 1) {
      warmCandles = candles;
      candles = [];
    }
    if (s < WARMUP_MIN * 60) continue;
    const books: Tick['snapshot']['books'] = {};
    const open: Tick['snapshot']['open'] = {};
    for (const symbol of DEFAULT_SYMBOLS) {
      const mid = engine.snapshot(symbol)?.mid;
      if (typeof mid === 'number') books[symbol] = { mid };
      const bar = engine.openCandle(symbol, '1m');
      if (bar)
        open[symbol] = {
          '1m': [bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume, bar.quoteVolume],
        };
    }
    ticks.push({ snapshot: { symbols: [...DEFAULT_SYMBOLS], at, books, open }, candles });
    candles = [];
  }
  const mids: Record<string, number> = {};
  for (const [symbol, book] of Object.entries(ticks[0]!.snapshot.books)) mids[symbol] = book.mid;
  return { ticks, warmCandles, mids };
}

function makeRules(mids: Record<string, number>, first: Map<string, number>): AlertRule[] {
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const symbols = Object.keys(mids);
  const ops: PriceOp[] = ['crosses_above', 'crosses_below', 'above', 'below'];
  const windows: RuleWindow[] = ['5m', '15m', '1h', '24h'];
  const rules: AlertRule[] = [];
  for (let i = 0; i < RULES; i++) {
    const symbol = symbols[i % symbols.length]!;
    const mid = mids[symbol]!;
    const kind = i % 10;
    const base = {
      id: `alr_bench${i}`,
      accountId: `usr_${i % 50}`,
      name: `rule ${i}`,
      symbol,
      trigger: { mode: 'every' as const, cooldownSec: 300 },
      expiresAt: null,
      channels: { webhookIds: [], events: true },
      normalized: [],
      state: 'active' as const,
      version: 1,
      lastSatisfied: null,
      lastEventAt: null,
      lastTriggeredAt: null,
      triggerCount: 0,
      createdAt: START,
      updatedAt: START,
    };
    // As users set them: levels and crossings on the far side of the price (within 3 %), moves of 0.3–3 %,
    // volumes 5–100 % above the window's current volume.
    if (kind < 7) {
      const op = ops[i % 4]!;
      const away = (op === 'crosses_above' || op === 'above' ? 1 : -1) * (0.001 + random() * 0.029);
      rules.push({ ...base, type: 'price', condition: { op, value: mid * (1 + away) } });
    } else if (kind < 9) {
      const value = (random() < 0.5 ? 1 : -1) * (0.3 + random() * 2.7);
      rules.push({ ...base, type: 'price', condition: { op: 'change_pct', value, window: windows[i % 4]! } });
    } else {
      const window = windows[i % 4]!;
      const current = first.get(`v:${window}:${symbol}`) ?? 1e6;
      rules.push({
        ...base,
        type: 'volume',
        condition: { op: 'above', value: current * (1.05 + random() * 0.95), window },
      });
    }
  }
  return rules;
}

/** The baseline: every rule compared with its series value on every tick, no index. */
function scanBaseline(rules: AlertRule[], ticks: Tick[], values: Array<Map<string, number>>) {
  const keyOf = (r: AlertRule) => {
    const c = r.condition as { op: string; value: number; window?: RuleWindow };
    if (r.type === 'volume') return `v:${c.window}:${r.symbol}`;
    if (c.op === 'change_pct') return `c:${c.window}:${r.symbol}`;
    return `p:${r.symbol}`;
  };
  const compiled = rules.map((r) => {
    const c = r.condition as { op: string; value: number };
    const up =
      r.type === 'volume' ||
      c.op === 'crosses_above' ||
      c.op === 'above' ||
      (c.op === 'change_pct' && c.value > 0);
    return {
      key: keyOf(r),
      up,
      threshold: c.value,
      crossing: c.op.startsWith('crosses'),
      state: 0,
      lastAt: -1e15,
    };
  });
  let fired = 0;
  const perTick: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < ticks.length; i++) {
    const s = performance.now();
    const at = ticks[i]!.snapshot.at;
    const v = values[i]!;
    for (const r of compiled) {
      const x = v.get(r.key);
      if (x === undefined) continue;
      const holds = r.up ? x > r.threshold : x < r.threshold;
      const now = holds ? 1 : -1;
      if (holds && (r.crossing ? r.state === -1 : true) && at - r.lastAt >= 300_000) {
        fired++;
        r.lastAt = at;
      }
      r.state = now;
    }
    perTick.push(performance.now() - s);
  }
  return { ms: performance.now() - t0, fired, perTick };
}

export async function run() {
  console.log('\nAlert evaluation per market tick — simulated market, 7 symbols');
  const { ticks, warmCandles, mids } = simulate();
  // The baseline's series values: computed once with the same windows the evaluator uses.
  const values = seriesValues(ticks, warmCandles);
  const rules = makeRules(mids, values[0]!);

  const measureEvaluator = async () => {
    const clock = manualClock(ticks[0]!.snapshot.at);
    const log = createMemoryEventsRepository();
    let n = 0;
    const repo = createMemoryAlertsRepository((events, at) =>
      events.map((e) =>
        log.add({
          id: `evt_${n++}`,
          accountId: e.accountId,
          type: e.type,
          body: '',
          test: false,
          createdAt: at,
        }),
      ),
    );
    const evaluator = createEvaluator({
      repo,
      bus: memoryBus(),
      clock,
      log: { info() {}, warn() {}, error() {} },
    });
    for (const c of warmCandles) evaluator.onCandle(c);
    for (const rule of rules) evaluator.apply(rule, false);
    // Series values as the evaluator computes them, recorded for the baseline (outside the timed loop).
    const perTick: number[] = [];
    const t0 = performance.now();
    for (const tick of ticks) {
      clock.set(tick.snapshot.at);
      const s = performance.now();
      for (const c of tick.candles) evaluator.onCandle(c);
      evaluator.onSnapshot(tick.snapshot);
      perTick.push(performance.now() - s);
    }
    const total = performance.now() - t0;
    if (process.env.BENCH_ALERTS_DEBUG) {
      const top = perTick
        .map((ms, i) => [ms, i] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 12);
      console.log(
        top
          .map(
            ([ms, i]) =>
              `${i}:${((ticks[i]!.snapshot.at / 1000) % 60).toFixed(0)}s:${ms.toFixed(2)}ms:c${ticks[i]!.candles.length}`,
          )
          .join(' '),
      );
    }
    // The write path (composing trigger records and event bodies, the memory repository) after the ticks.
    const w0 = performance.now();
    await evaluator.idle();
    const writeMs = performance.now() - w0;
    return { total, perTick, writeMs, stats: evaluator.stats() };
  };

  await measureEvaluator(); // warm-up (JIT)
  scanBaseline(rules, ticks, values);
  const runs = [await measureEvaluator(), await measureEvaluator(), await measureEvaluator()].sort(
    (a, b) => a.total - b.total,
  );
  const scans = [
    scanBaseline(rules, ticks, values),
    scanBaseline(rules, ticks, values),
    scanBaseline(rules, ticks, values),
  ].sort((a, b) => a.ms - b.ms);
  const median = runs[1]!;
  const scan = scans[1]!;
  const us = (ms: number) => (ms * 1000).toFixed(1);
  const pct = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
  };
  const evalMean = median.total / ticks.length;
  const scanMean = scan.ms / ticks.length;
  const evalP50 = pct(median.perTick, 0.5);
  const scanP50 = pct(scan.perTick, 0.5);
  console.log(
    '| rules | ticks | | mean µs/tick | p50 | p90 | p99 | max |\n|---|---|---|---|---|---|---|---|',
  );
  for (const [name, r] of [
    ['alert evaluator (threshold index)', median.perTick],
    ['baseline: full scan of every rule', scan.perTick],
  ] as const) {
    const mean = name.startsWith('alert') ? evalMean : scanMean;
    console.log(
      `| ${rules.length} | ${ticks.length} | ${name} | ${us(mean)} | ${us(pct(r, 0.5))} | ${us(pct(r, 0.9))} | ${us(pct(r, 0.99))} | ${us(pct(r, 1))} |`,
    );
  }
  console.log(
    `ratio evaluator/scan: p50 ${(evalP50 / scanP50).toFixed(3)}, mean ${(evalMean / scanMean).toFixed(3)}; ` +
      `firings ${median.stats.fired} (write path ${median.stats.fired ? us(median.writeMs / median.stats.fired) : '–'} µs each, ` +
      `off the tick), rules visited ${median.stats.visited} (${(median.stats.visited / ticks.length).toFixed(1)} a tick)`,
  );
  console.log(`target ≤ 1000 µs per tick (mean): ${evalMean <= 1 ? 'met' : 'NOT met'}`);
  // The other half of the alerts target: a fired event's way to a webhook receiver.
  const delivery = await runDelivery();
  return {
    perTickUs: evalMean * 1000,
    p50Us: evalP50 * 1000,
    scanPerTickUs: scanMean * 1000,
    ratioP50: evalP50 / scanP50,
    delivery,
  };
}

/** Per tick, the value of every series the rules read, as the evaluator's market windows compute them. */
function seriesValues(ticks: Tick[], warmCandles: CandleClosed[]): Array<Map<string, number>> {
  const bars = new Map<string, Map<number, { close: number; qv: number }>>();
  const add = (e: CandleClosed) => {
    const m = bars.get(e.symbol) ?? new Map();
    m.set(e.candle.openTime, { close: e.candle.close, qv: e.candle.quoteVolume });
    bars.set(e.symbol, m);
  };
  for (const c of warmCandles) add(c);
  const out: Array<Map<string, number>> = [];
  for (const tick of ticks) {
    for (const c of tick.candles) add(c);
    const v = new Map<string, number>();
    const at = tick.snapshot.at;
    for (const [symbol, { mid }] of Object.entries(tick.snapshot.books)) {
      v.set(`p:${symbol}`, mid);
      const m = bars.get(symbol) ?? new Map();
      const open = tick.snapshot.open[symbol]?.['1m'];
      const current = open?.[0] ?? Math.floor(at / 60_000) * 60_000;
      for (const w of ['5m', '15m', '1h', '24h'] as const) {
        const ms = WINDOW_MS[w];
        const ref = m.get(Math.floor((at - ms) / 60_000) * 60_000)?.close;
        if (ref) v.set(`c:${w}:${symbol}`, (100 * (mid - ref)) / ref);
        let qv = open ? open[6]! : 0;
        for (let t = current - ms + 60_000; t < current; t += 60_000) qv += m.get(t)?.qv ?? 0;
        v.set(`v:${w}:${symbol}`, qv);
      }
    }
    out.push(v);
  }
  return out;
}
