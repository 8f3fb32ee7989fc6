import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import type { Clock } from '../../shared/clock.ts';
import { newId } from '../../shared/ids.ts';
import { type LeaderTerm, StaleLeaderError } from '../../shared/leadership.ts';
import type { EventsTopics, EventType } from '../events/index.ts';
import { type MinuteBar, MarketWindows } from './market-window.ts';
import { ruleSummary } from './present.ts';
import type { AlertsRepository, TriggerRecord } from './repository.ts';
import {
  type AlertRule,
  type FlowCondition,
  isCrossing,
  LIVE_STATES,
  type PriceCondition,
  type RuleWindow,
  type VolumeCondition,
  WINDOW_MS,
} from './rule.ts';
import { type Sense, ThresholdIndex, upperBound } from './threshold-index.ts';
import type { AlertsTopics } from './topics.ts';

export interface AlertsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Recent merged 1-minute bars from storage, so volume and change rules are right from the first tick. */
export interface MarketHistory {
  minuteBars(symbol: string, fromMs: number, toMs: number): Promise<MinuteBar[]>;
}

/** Stored flows (newest first or any order), so windowed flow sums are complete after a start. */
export interface FlowHistory {
  flowsSince(sinceMs: number): Promise<FlowEvent[]>;
}

/**
 * The fields of an `onchain.flow` bus payload the evaluator reads (the flows endpoint's shape); a firing's
 * event carries the whole flow as received.
 */
export interface FlowEvent {
  id: string;
  chain: string;
  txHash: string;
  logIndex: number | null;
  timestamp: number;
  exchange: string;
  direction: 'deposit' | 'withdrawal' | 'internal';
  asset: string;
  usdValue: number | null;
  from: { address: string };
  to: { address: string };
}

/** The fields of a `market.snapshot` payload the evaluator reads: each symbol's mid and open 1-minute bar. */
export interface SnapshotEvent {
  at: number;
  books: Record<string, { mid: number | null }>;
  /** Per symbol and interval, `[openTime, open, high, low, close, volume, quoteVolume]`. */
  open: Record<string, { '1m'?: number[] }>;
}

/** The fields of a `market.candle` payload (a merged closed candle) the evaluator reads. */
export interface CandleEvent {
  symbol: string;
  interval: string;
  candle: { openTime: number; close: number; quoteVolume: number };
}

/**
 * The topics the evaluator hears and announces on, with its views of the payloads. The process's bus (the
 * table in app/bus-topics.ts) is handed in as this type, so the compiler checks each view against it.
 */
export interface EvaluatorTopics extends AlertsTopics, EventsTopics {
  [topics.marketSnapshot]: SnapshotEvent;
  [topics.marketCandle]: CandleEvent;
  [topics.onchainFlow]: FlowEvent;
  [topics.onchainFlowsRemoved]: { ids: string[] };
}

/** What happened, as a firing sees it: the event's key and time and what the event data says. */
interface Occasion {
  key: string;
  at: number;
  value: number;
  /** What the event's data says about it; built only when a firing is written. */
  detail: () => Record<string, unknown>;
  flowId?: string;
}

/** A firing decided on an event, written (composed and recorded) by the write queue. */
interface PendingFire {
  rule: AlertRule;
  crossing: boolean;
  occasion: Occasion;
  firedAt: number;
}

/** A rule as the evaluator holds it. */
interface Live {
  rule: AlertRule;
  crossing: boolean;
  /** Where the rule sits: a threshold series, or a single-transfer flow bucket. */
  series?: Series;
  sense: Sense;
  threshold: number;
  bucket?: string;
  /** Whether the condition held at the last evaluation; undefined before the first. */
  satisfied: boolean | undefined;
  lastEventAt: number | null;
  gone: boolean;
}

interface Series {
  key: string;
  index: ThresholdIndex<Live>;
  value: number | undefined;
  /** The event that set the current value (a firing at reconciliation or wake-up refers to it). */
  occasion: Occasion | undefined;
  domain: 'market' | 'flow';
}

/** A windowed sum of matching flows: one series per (target, direction, asset, window). */
interface FlowGroup {
  series: Series;
  target: string;
  direction: FlowCondition['direction'];
  asset: string | undefined;
  windowMs: number;
  window: RuleWindow;
  flows: Array<{ time: number; usd: number; transfer: string }>;
  transfers: Set<string>;
  sum: number;
}

class MinHeap<T> {
  private readonly items: Array<{ at: number; item: T }> = [];
  get size() {
    return this.items.length;
  }
  push(at: number, item: T) {
    const a = this.items;
    a.push({ at, item });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.at <= a[i]!.at) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  /** Removes and returns every item due at or before `at`. */
  popDue(at: number, visit: (item: T, dueAt: number) => void) {
    const a = this.items;
    while (a.length && a[0]!.at <= at) {
      const top = a[0]!;
      const last = a.pop()!;
      if (a.length) {
        a[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < a.length && a[l]!.at < a[m]!.at) m = l;
          if (r < a.length && a[r]!.at < a[m]!.at) m = r;
          if (m === i) break;
          [a[m], a[i]] = [a[i]!, a[m]!];
          i = m;
        }
      }
      visit(top.item, top.at);
    }
  }
}

export interface EvaluatorOptions {
  repo: AlertsRepository;
  bus: Bus<EvaluatorTopics>;
  clock: Clock;
  log: AlertsLogger;
  history?: MarketHistory;
  flowHistory?: FlowHistory;
  /** Period of the incremental rule sync that backs up the change notices (ms, default 5000). */
  syncMs?: number;
  /** Period of expiry and flow-window checks between events (ms, default 1000). */
  sweepMs?: number;
}

export interface EvaluatorStats {
  rules: number;
  series: number;
  /** Rules visited because an event may have changed their condition (the index's work). */
  visited: number;
  fired: number;
  recorded: number;
  pendingWrites: number;
}

export interface Evaluator {
  /**
   * Loads the live rules, subscribes to the engines' topics, starts the timers. Its writes carry `term` (the
   * evaluator job's leadership term) and are refused once it is no longer current.
   */
  start(term?: LeaderTerm): Promise<void>;
  stop(): Promise<void>;
  /** The bus handlers, exposed for tests and the benchmark to drive tick by tick. */
  onSnapshot(payload: SnapshotEvent): void;
  onCandle(payload: CandleEvent): void;
  onFlow(payload: FlowEvent): void;
  onFlowsRemoved(payload: { ids: string[] }): void;
  /** Applies a stored rule (created, edited, deleted) to the index. */
  apply(rule: AlertRule, deleted: boolean): void;
  /** Loads every live rule from the repository into the index. */
  loadAll(): Promise<void>;
  /** Expires due rules and decays flow windows at `clock.now()`. */
  sweep(): void;
  /** Resolves when every write queued so far (triggers, sides, expiries) is stored. */
  idle(): Promise<void>;
  stats(): EvaluatorStats;
  /** Whether the rule is in the index (live and loaded). */
  isWatching(ruleId: string): boolean;
}

const SNAPSHOT_WINDOWS: readonly RuleWindow[] = ['5m', '15m', '1h', '24h'];

/**
 * The alert evaluator (a leader-elected job in the worker role). Rules live in per-series threshold indexes
 * (see ThresholdIndex); each market snapshot, candle and flow updates a handful of series values, and only
 * the rules whose threshold the value passed are visited. Firings are written exactly once by the
 * repository (unique trigger key, same transaction as the account events) and announced after commit.
 */
export function createEvaluator(options: EvaluatorOptions): Evaluator {
  const { repo, bus, clock, log } = options;
  const syncMs = options.syncMs ?? 5_000;
  const sweepMs = options.sweepMs ?? 1_000;
  const windows = new MarketWindows();
  const series = new Map<string, Series>();
  const lives = new Map<string, Live>();
  const buckets = new Map<string, Live[]>();
  const groups = new Map<string, FlowGroup>();
  const groupsByTarget = new Map<string, Set<FlowGroup>>();
  const wakeMarket = new MinHeap<Live>();
  const wakeFlow = new MinHeap<Live>();
  const expiries = new MinHeap<Live>();
  const warmed = new Set<string>();
  let pendingFires: PendingFire[] = [];
  const dirtySides = new Map<string, Live>();
  const pendingExpiries: Array<{ id: string; version: number }> = [];
  let writing: Promise<void> = Promise.resolve();
  let queued = 0;
  let fired = 0;
  let visited = 0;
  let recorded = 0;
  let running = false;
  const unsubscribers: Array<() => Promise<void>> = [];
  let syncTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  // ── series and rules ──

  /** The last price of every symbol, rules or not: a new price rule's side is taken from it. */
  const lastPrice = new Map<string, Occasion>();

  const seriesOf = (key: string, domain: Series['domain'], inclusive = false): Series => {
    let s = series.get(key);
    if (!s) {
      const last = key.startsWith('p:') ? lastPrice.get(key.slice(2)) : undefined;
      s = {
        key,
        index: new ThresholdIndex<Live>({ inclusive }),
        value: last?.value,
        occasion: last,
        domain,
      };
      series.set(key, s);
    }
    return s;
  };

  const cooldownMs = (live: Live) => live.rule.trigger.cooldownSec * 1000;
  const coolingUntil = (live: Live) =>
    live.rule.trigger.mode === 'every' && live.lastEventAt !== null ? live.lastEventAt + cooldownMs(live) : 0;

  function eventTypeOf(rule: AlertRule): EventType {
    return rule.type === 'address_flow' ? 'onchain.flow' : 'alert.triggered';
  }

  /**
   * The decision to fire: cheap, on the event's path. The trigger record and its event body are composed in
   * the write path (`compose`), off the evaluation of the tick.
   */
  function fire(live: Live, occasion: Occasion) {
    const rule = live.rule;
    fired++;
    live.lastEventAt = occasion.at;
    pendingFires.push({ rule, crossing: live.crossing, occasion, firedAt: clock.now() });
    if (live.crossing) dirtySides.delete(rule.id);
    if (rule.trigger.mode === 'once') remove(live);
    else if (!live.crossing) wakeOf(live).push(occasion.at + cooldownMs(live), live);
  }

  function compose({ rule, crossing, occasion, firedAt }: PendingFire): TriggerRecord {
    const id = newId('trg');
    return {
      id,
      ruleId: rule.id,
      accountId: rule.accountId,
      kind: 'fire',
      eventKey: occasion.key,
      version: rule.version,
      once: rule.trigger.mode === 'once',
      satisfied: crossing ? true : undefined,
      eventAt: occasion.at,
      flowId: occasion.flowId ?? null,
      value: occasion.value,
      eventType: eventTypeOf(rule),
      data: {
        ...(rule.type === 'address_flow' ? { status: 'confirmed' } : {}),
        rule: ruleSummary(rule),
        trigger: {
          id,
          firedAt: new Date(firedAt).toISOString(),
          eventAt: new Date(occasion.at).toISOString(),
          key: occasion.key,
          value: occasion.value,
        },
        ...occasion.detail(),
      },
    };
  }

  const wakeOf = (live: Live) => (live.series?.domain === 'flow' || live.bucket ? wakeFlow : wakeMarket);

  /** A level rule that holds: fire unless cooling down (then look again when the cooldown ends). */
  function fireIfCool(live: Live, occasion: Occasion) {
    const until = coolingUntil(live);
    if (occasion.at < until) {
      wakeOf(live).push(until, live);
      return;
    }
    fire(live, occasion);
  }

  /** The condition of `live` changed with its series' move. */
  function flipped(live: Live, holds: boolean, occasion: Occasion) {
    visited++;
    if (live.gone) return;
    live.satisfied = holds;
    if (live.crossing) {
      if (holds && occasion.at >= coolingUntil(live)) fire(live, occasion);
      else dirtySides.set(live.rule.id, live);
      return;
    }
    if (holds) fireIfCool(live, occasion);
  }

  /** Brings one rule in line with its series' current value (first value, or a rule added later). */
  function reconcile(live: Live, value: number, occasion: Occasion) {
    visited++;
    const holds = live.series!.index.holds(live.sense, live.threshold, value);
    if (live.crossing) {
      if (live.satisfied === undefined) {
        // Never evaluated: this value sets the side; a crossing needs a move across it from here.
        live.satisfied = holds;
        dirtySides.set(live.rule.id, live);
      } else if (live.satisfied !== holds) flipped(live, holds, occasion);
      return;
    }
    live.satisfied = holds;
    if (holds) fireIfCool(live, occasion);
  }

  function setValue(s: Series, value: number, occasion: Occasion) {
    const previous = s.value;
    s.value = value;
    s.occasion = occasion;
    if (previous === undefined)
      s.index.forEach((live) => {
        reconcile(live, value, occasion);
      });
    else s.index.moved(previous, value, (live, holds) => flipped(live, holds, occasion));
  }

  function seriesKeyOf(rule: AlertRule): {
    key: string;
    sense: Sense;
    threshold: number;
    domain: Series['domain'];
  } {
    if (rule.type === 'price') {
      const c = rule.condition as PriceCondition;
      if (c.op === 'change_pct')
        return {
          key: `c:${c.window}:${rule.symbol}`,
          sense: c.value > 0 ? 'up' : 'down',
          threshold: c.value,
          domain: 'market',
        };
      const sense: Sense = c.op === 'crosses_above' || c.op === 'above' ? 'up' : 'down';
      return { key: `p:${rule.symbol}`, sense, threshold: c.value, domain: 'market' };
    }
    if (rule.type === 'volume') {
      const c = rule.condition as VolumeCondition;
      return { key: `v:${c.window}:${rule.symbol}`, sense: 'up', threshold: c.value, domain: 'market' };
    }
    const c = rule.condition as FlowCondition;
    return { key: `f:${flowGroupKey(c)}:${c.window}`, sense: 'up', threshold: c.minUsd, domain: 'flow' };
  }

  function add(rule: AlertRule) {
    const now = clock.now();
    if (rule.expiresAt !== null && rule.expiresAt <= now) {
      pendingExpiries.push({ id: rule.id, version: rule.version });
      scheduleWrite();
      return;
    }
    const live: Live = {
      rule,
      crossing: isCrossing(rule),
      sense: 'up',
      threshold: 0,
      satisfied: rule.lastSatisfied ?? undefined,
      lastEventAt: rule.lastEventAt,
      gone: false,
    };
    lives.set(rule.id, live);
    if (rule.expiresAt !== null) expiries.push(rule.expiresAt, live);
    if (rule.type === 'address_flow' && !(rule.condition as FlowCondition).window) {
      const c = rule.condition as FlowCondition;
      live.bucket = flowTarget(c);
      live.threshold = c.minUsd;
      const list = buckets.get(live.bucket) ?? [];
      list.splice(upperBound(list, c.minUsd), 0, live);
      buckets.set(live.bucket, list);
      return;
    }
    const { key, sense, threshold, domain } = seriesKeyOf(rule);
    live.sense = sense;
    live.threshold = threshold;
    const s = seriesOf(key, domain, domain === 'flow');
    live.series = s;
    s.index.add(sense, threshold, live);
    if (rule.type === 'address_flow') ensureGroup(rule.condition as FlowCondition, s);
    else if (key[0] !== 'p') warm(rule.symbol!);
    if (s.value !== undefined && s.occasion) reconcile(live, s.value, s.occasion);
  }

  function remove(live: Live) {
    if (live.gone) return;
    live.gone = true;
    lives.delete(live.rule.id);
    dirtySides.delete(live.rule.id);
    if (live.series) live.series.index.remove(live.sense, live.threshold, live);
    if (live.bucket) {
      const list = buckets.get(live.bucket);
      const i = list?.indexOf(live) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
    }
  }

  function apply(rule: AlertRule, deleted: boolean) {
    const existing = lives.get(rule.id);
    if (deleted || !LIVE_STATES.includes(rule.state)) {
      if (existing) remove(existing);
      return;
    }
    if (existing && existing.rule.version === rule.version) {
      existing.rule = { ...existing.rule, state: rule.state };
      return;
    }
    if (existing) remove(existing);
    add(rule);
  }

  // ── market ──

  function onSnapshot(p: SnapshotEvent) {
    const at = p.at;
    for (const [symbol, book] of Object.entries(p.books)) {
      const bar = p.open[symbol]?.['1m'];
      if (bar && typeof bar[0] === 'number')
        windows.setOpen(symbol, { openTime: bar[0], close: Number(bar[4]), quoteVolume: Number(bar[6]) });
      const mid = book.mid;
      if (mid === null || !Number.isFinite(mid)) continue;
      const key = `${symbol}@${at}`;
      const occasion = {
        key,
        at,
        value: mid,
        detail: () => ({ market: { symbol, price: mid, at: iso(at) } }),
      };
      lastPrice.set(symbol, occasion);
      const price = series.get(`p:${symbol}`);
      if (price) setValue(price, mid, occasion);
      for (const w of SNAPSHOT_WINDOWS) {
        const change = series.get(`c:${w}:${symbol}`);
        if (change?.index.size) {
          const pct = windows.changePct(symbol, WINDOW_MS[w], mid, at);
          if (pct !== undefined)
            setValue(change, pct, {
              key,
              at,
              value: pct,
              detail: () => ({
                market: { symbol, price: mid, window: w, changePct: round(pct, 4), at: iso(at) },
              }),
            });
        }
        const volume = series.get(`v:${w}:${symbol}`);
        if (volume?.index.size) {
          const qv = windows.quoteVolume(symbol, WINDOW_MS[w], at);
          if (qv !== undefined)
            setValue(volume, qv, {
              key,
              at,
              value: qv,
              detail: () => ({
                market: { symbol, window: w, quoteVolume: round(qv, 2), price: mid, at: iso(at) },
              }),
            });
        }
      }
    }
    wakeMarket.popDue(at, (live) => recheck(live, at));
    sweep();
  }

  /** A level rule whose cooldown ended: fire if its condition still holds. */
  function recheck(live: Live, at: number) {
    if (live.gone || live.crossing) return;
    if (at < coolingUntil(live)) return; // a newer firing moved the cooldown on; its own wake-up is queued
    const s = live.series;
    if (!s || s.value === undefined || !s.occasion) return;
    if (!s.index.holds(live.sense, live.threshold, s.value)) return;
    const occasion = s.occasion.at >= at ? s.occasion : { ...s.occasion, key: `${s.key}@${at}`, at };
    fire(live, occasion);
  }

  function onCandle(p: CandleEvent) {
    if (p.interval !== '1m') return;
    const { openTime, close, quoteVolume } = p.candle;
    windows.addClosed(p.symbol, { openTime, close, quoteVolume: quoteVolume || 0 });
  }

  function warm(symbol: string) {
    if (warmed.has(symbol) || !options.history) return;
    warmed.add(symbol);
    const now = clock.now();
    options.history
      .minuteBars(symbol, now - WINDOW_MS['24h'] - 5 * 60_000, now)
      .then((bars) => {
        for (const bar of bars) windows.addClosed(symbol, bar);
      })
      .catch((error: unknown) => {
        warmed.delete(symbol);
        log.warn(
          { symbol, err: String(error) },
          'alerts: market history backfill failed; retried on next use',
        );
      });
  }

  // ── on-chain flows ──

  function ensureGroup(c: FlowCondition, s: Series) {
    const key = s.key;
    if (groups.has(key)) return;
    const group: FlowGroup = {
      series: s,
      target: flowTarget(c),
      direction: c.direction,
      asset: c.asset,
      windowMs: WINDOW_MS[c.window!],
      window: c.window!,
      flows: [],
      transfers: new Set(),
      sum: 0,
    };
    groups.set(key, group);
    const set = groupsByTarget.get(group.target) ?? new Set();
    set.add(group);
    groupsByTarget.set(group.target, set);
    backfill(group);
  }

  /**
   * Loads the stored flows of a new group's window (after a start or failover the sum is then complete), and
   * merges them with the flows that arrived meanwhile.
   */
  function backfill(group: FlowGroup) {
    if (!options.flowHistory) return;
    options.flowHistory
      .flowsSince(clock.now() - group.windowMs)
      .then((list) => {
        const now = clock.now();
        const added: Array<{ time: number; usd: number; transfer: string; flow: FlowEvent }> = [];
        for (const flow of list) {
          const usd = flow.usdValue;
          if (typeof usd !== 'number' || !Number.isFinite(usd) || flow.timestamp <= now - group.windowMs)
            continue;
          if (group.asset && group.asset !== flow.asset.toUpperCase()) continue;
          const transfer = transferOf(flow);
          if (group.transfers.has(transfer)) continue;
          const side = sidesOf(flow).find(
            ([target, direction]) =>
              target === group.target && (group.direction === 'any' || group.direction === direction),
          );
          if (!side) continue;
          group.transfers.add(transfer);
          added.push({ time: flow.timestamp, usd, transfer, flow });
        }
        if (added.length === 0) return;
        group.flows = [...group.flows, ...added].sort((a, b) => a.time - b.time);
        group.sum = group.flows.reduce((sum, f) => sum + f.usd, 0);
        const newest = added.reduce((a, b) => (b.time > a.time ? b : a));
        const window = { window: group.window, sumUsd: round(group.sum, 2), flows: group.flows.length };
        setValue(group.series, group.sum, {
          key: `flow:${newest.flow.id}`,
          at: newest.time,
          value: group.sum,
          flowId: newest.flow.id,
          detail: () => ({ window, flow: newest.flow }),
        });
        scheduleWrite();
      })
      .catch((error: unknown) => {
        log.warn(
          { series: group.series.key, err: String(error) },
          'alerts: loading stored flows failed; the window fills from new flows',
        );
      });
  }

  function decay(group: FlowGroup, now: number) {
    let dropped = false;
    while (group.flows.length && group.flows[0]!.time <= now - group.windowMs) {
      const f = group.flows.shift()!;
      group.sum -= f.usd;
      group.transfers.delete(f.transfer);
      dropped = true;
    }
    if (dropped) {
      if (group.flows.length === 0) group.sum = 0;
      const occasion = { key: `${group.series.key}@${now}`, at: now, value: group.sum, detail: () => ({}) };
      setValue(
        group.series,
        group.sum,
        group.series.occasion ? { ...group.series.occasion, value: group.sum } : occasion,
      );
    }
  }

  function onFlow(flow: FlowEvent) {
    const usd = flow.usdValue;
    if (typeof usd !== 'number' || !Number.isFinite(usd)) return; // no price known: cannot compare with minUsd
    const now = clock.now();
    const transfer = transferOf(flow);
    const asset = flow.asset.toUpperCase();
    for (const [target, direction] of sidesOf(flow)) {
      const list = buckets.get(target);
      if (list) {
        const end = upperBound(list, usd);
        for (const live of list.slice(0, end)) {
          const c = live.rule.condition as FlowCondition;
          if (live.gone || (c.direction !== 'any' && c.direction !== direction)) continue;
          if ((c.asset && c.asset !== asset) || flow.timestamp < live.rule.createdAt) continue;
          if (flow.timestamp < coolingUntil(live)) continue;
          fire(live, {
            key: `flow:${transfer}`,
            at: flow.timestamp,
            value: usd,
            flowId: flow.id,
            detail: () => ({ flow }),
          });
        }
      }
      for (const group of groupsByTarget.get(target) ?? []) {
        if (group.direction !== 'any' && group.direction !== direction) continue;
        if (group.asset && group.asset !== asset) continue;
        decay(group, now);
        if (group.transfers.has(transfer) || flow.timestamp <= now - group.windowMs) continue;
        group.transfers.add(transfer);
        group.flows.push({ time: flow.timestamp, usd, transfer });
        group.sum += usd;
        const window = { window: group.window, sumUsd: round(group.sum, 2), flows: group.flows.length };
        setValue(group.series, group.sum, {
          key: `flow:${flow.id}`,
          at: flow.timestamp,
          value: group.sum,
          flowId: flow.id,
          detail: () => ({ window, flow }),
        });
      }
    }
    wakeFlow.popDue(flow.timestamp, (live) => recheck(live, flow.timestamp));
    scheduleWrite();
  }

  function onFlowsRemoved({ ids }: { ids: string[] }) {
    if (ids.length === 0) return;
    const gone = new Set(ids);
    const now = clock.now();
    for (const group of groups.values()) {
      // Flow ids end with the exchange side; transfers shared by both sides are matched by the transfer key.
      const before = group.flows.length;
      group.flows = group.flows.filter((f) => ![...gone].some((id) => id.startsWith(`${f.transfer}:`)));
      if (group.flows.length !== before) {
        group.transfers = new Set(group.flows.map((f) => f.transfer));
        group.sum = group.flows.reduce((a, f) => a + f.usd, 0);
        const base = group.series.occasion ?? {
          key: `${group.series.key}@${now}`,
          at: now,
          value: 0,
          detail: () => ({}),
        };
        setValue(group.series, group.sum, { ...base, value: group.sum });
      }
    }
    enqueue(async () => {
      const fires = await repo.firesForFlows(ids);
      if (fires.length === 0) return;
      const at = clock.now();
      const retractions: TriggerRecord[] = [];
      for (const t of fires) {
        const stored = await repo.byId(t.ruleId);
        if (!stored) continue;
        const id = newId('trg');
        retractions.push({
          id,
          ruleId: t.ruleId,
          accountId: t.accountId,
          kind: 'retract',
          eventKey: `removed:${t.eventKey}`,
          eventAt: at,
          flowId: t.flowId,
          value: t.value,
          eventType: 'onchain.flow',
          data: {
            status: 'removed',
            replaces: t.eventId,
            rule: ruleSummary(stored.rule),
            trigger: { id, firedAt: new Date(at).toISOString(), replacesTrigger: t.id },
            removedFlowId: t.flowId,
            reason: 'chain reorganization',
          },
        });
      }
      await commit(retractions);
    });
  }

  // ── expiry and sweeping ──

  function sweep() {
    const now = clock.now();
    expiries.popDue(now, (live) => {
      if (live.gone || live.rule.expiresAt === null || live.rule.expiresAt > now) return;
      remove(live);
      pendingExpiries.push({ id: live.rule.id, version: live.rule.version });
    });
    for (const group of groups.values()) decay(group, now);
    wakeFlow.popDue(now, (live) => recheck(live, now));
    scheduleWrite();
  }

  // ── writes ──

  let term: LeaderTerm | undefined;

  function enqueue(work: () => Promise<void>) {
    queued++;
    writing = writing
      .then(async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            await work();
            return;
          } catch (error) {
            if (error instanceof StaleLeaderError) {
              // This process no longer leads: the current leader evaluates and writes instead.
              log.warn({ err: String(error) }, 'alerts: write refused, leadership moved on');
              return;
            }
            if (!running && attempt >= 3) {
              log.error({ err: String(error) }, 'alerts: write abandoned at shutdown');
              return;
            }
            log.warn({ err: String(error), attempt }, 'alerts: write failed; retrying');
            await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** attempt)));
          }
        }
      })
      .finally(() => {
        queued--;
      });
  }

  async function commit(records: TriggerRecord[]) {
    if (records.length === 0) return;
    const result = await repo.recordTriggers(records, clock.now(), term);
    recorded += result.recorded.length;
    for (const event of result.events) {
      await bus.publish(topics.accountEvent, event).catch((error: unknown) => {
        // Consumers also scan the event log, so a lost announcement only delays delivery.
        log.warn({ event: event.id, err: String(error) }, 'alerts: announcing an account event failed');
      });
    }
  }

  /** Queues what the last event produced: its firings, then the crossing sides and expiries. */
  function scheduleWrite() {
    if (pendingFires.length) {
      const batch = pendingFires;
      pendingFires = [];
      enqueue(() => commit(batch.map(compose)));
    }
    if (dirtySides.size) {
      const sides = [...dirtySides.values()].map((l) => ({
        id: l.rule.id,
        version: l.rule.version,
        satisfied: l.satisfied === true,
      }));
      dirtySides.clear();
      enqueue(() => repo.saveSides(sides, term));
    }
    if (pendingExpiries.length) {
      const list = pendingExpiries.splice(0);
      enqueue(async () => {
        const changed = await repo.expire(list, clock.now(), term);
        if (changed.length) log.info({ rules: changed.length }, 'alerts: rules expired');
      });
    }
  }

  // ── loading and sync ──

  async function loadAll() {
    const rules = await repo.loadLive();
    for (const rule of rules) apply(rule, false);
    scheduleWrite();
  }

  let syncing = false;
  async function sync() {
    if (syncing) return;
    syncing = true;
    try {
      // A margin covers clock differences between the API processes that stamp updated_at and this one.
      const changed = await repo.changedSince(clock.now() - syncMs - 60_000);
      for (const { rule, deleted } of changed) apply(rule, deleted);
      scheduleWrite();
    } catch (error) {
      log.warn({ err: String(error) }, 'alerts: rule sync failed; retried next period');
    } finally {
      syncing = false;
    }
  }

  const guarded =
    <P>(name: string, handler: (payload: P) => void) =>
    (payload: P): void => {
      try {
        handler(payload);
        scheduleWrite();
      } catch (error) {
        log.error({ topic: name, err: String(error) }, 'alerts: evaluating an event failed');
      }
    };

  return {
    async start(leaderTerm) {
      term = leaderTerm;
      running = true;
      unsubscribers.push(
        await bus.subscribe(topics.alertRuleChanged, ({ id }) => {
          repo
            .byId(id)
            .then((found) => {
              if (found) apply(found.rule, found.deleted);
              scheduleWrite();
            })
            .catch((error: unknown) => {
              log.warn(
                { rule: id, err: String(error) },
                'alerts: reloading a changed rule failed; the sync will',
              );
            });
        }),
        await bus.subscribe(topics.marketSnapshot, guarded('snapshot', onSnapshot)),
        await bus.subscribe(topics.marketCandle, guarded('candle', onCandle)),
        await bus.subscribe(topics.onchainFlow, guarded('flow', onFlow)),
        await bus.subscribe(topics.onchainFlowsRemoved, guarded('flows-removed', onFlowsRemoved)),
      );
      await loadAll();
      syncTimer = setInterval(() => void sync(), syncMs);
      sweepTimer = setInterval(guarded('sweep', sweep), sweepMs);
      syncTimer.unref?.();
      sweepTimer.unref?.();
      log.info({ rules: lives.size }, 'alerts: evaluator started');
    },
    async stop() {
      running = false;
      clearInterval(syncTimer);
      clearInterval(sweepTimer);
      for (const unsubscribe of unsubscribers.splice(0)) await unsubscribe();
      scheduleWrite();
      await writing;
    },
    onSnapshot: (p) => {
      onSnapshot(p);
      scheduleWrite();
    },
    onCandle,
    onFlow,
    onFlowsRemoved: (p) => {
      onFlowsRemoved(p);
      scheduleWrite();
    },
    apply: (rule, deleted) => {
      apply(rule, deleted);
      scheduleWrite();
    },
    loadAll,
    sweep,
    async idle() {
      scheduleWrite();
      while (queued > 0) await writing;
    },
    isWatching: (id) => lives.has(id),
    stats: () => ({
      rules: lives.size,
      series: series.size,
      visited,
      fired,
      recorded,
      pendingWrites: queued,
    }),
  };
}

/** The transfer: the flow id without its exchange side (both sides of an exchange-to-exchange move share it). */
function transferOf(flow: FlowEvent): string {
  return flow.id.slice(0, flow.id.lastIndexOf(':'));
}

/** The targets a flow concerns, each with the direction it moves for that target. */
function sidesOf(flow: FlowEvent): Array<[target: string, direction: 'in' | 'out']> {
  const sides: Array<[string, 'in' | 'out']> = [];
  if (flow.direction === 'deposit') sides.push([`x:${flow.exchange}`, 'in']);
  if (flow.direction === 'withdrawal') sides.push([`x:${flow.exchange}`, 'out']);
  if (typeof flow.to?.address === 'string') sides.push([`a:${flow.to.address.toLowerCase()}`, 'in']);
  if (typeof flow.from?.address === 'string') sides.push([`a:${flow.from.address.toLowerCase()}`, 'out']);
  return sides;
}

/** A flow rule's target: an exchange (`x:binance`) or an address (`a:0x…`). */
function flowTarget(c: FlowCondition): string {
  return c.exchange ? `x:${c.exchange}` : `a:${c.address}`;
}

function flowGroupKey(c: FlowCondition): string {
  return `${flowTarget(c)}|${c.direction}|${c.asset ?? '*'}`;
}

const iso = (ms: number) => new Date(ms).toISOString();
const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
