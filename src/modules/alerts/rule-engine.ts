import type { Clock } from '../../shared/clock.ts';
import { MinHeap } from '../../shared/min-heap.ts';
import { DerivativesFeed } from './derivatives-feed.ts';
import { sidesOf, transferOf } from './flow-sides.ts';
import { type FlowGroup, FlowWindows } from './flow-windows.ts';
import { MarketFeed } from './market-feed.ts';
import { ProbabilityFeed } from './probability-feed.ts';
import type { Occasion } from './occasion.ts';
import type {
  AlertsLogger,
  CandleEvent,
  DerivativesEvent,
  DerivativesHistory,
  FlowEvent,
  MarketHistory,
  ProbabilityEvent,
  SnapshotEvent,
} from './ports.ts';
import { type AlertRule, isDerivativesRuleType } from './rule.ts';
import { type Live, RuleIndex, type Series } from './rule-index.ts';

/** Where the engine's decisions go: the live evaluator stores them, a backtest lists them. */
export interface DecisionSink {
  /** The rule fires on this occasion (its cooldown and mode already applied). */
  fire(live: Live, occasion: Occasion): void;
  /** A crossing rule's side changed (the evaluator stores it, so a restart does not fire twice). */
  side(live: Live): void;
  /** A crossing rule's pending side is moot (it fired, or it left the index). */
  dropSide(ruleId: string): void;
}

export interface RuleEngineOptions {
  sink: DecisionSink;
  clock: Clock;
  log: AlertsLogger;
  /** Stored bars a new volume or change rule's windows warm from (absent: the windows fill from events). */
  history?: MarketHistory;
  /** Stored derivatives series a new windowed open-interest or liquidations rule warms from. */
  derivativesHistory?: DerivativesHistory;
}

/**
 * The decisions of alert evaluation, with no storage: rules held in per-series threshold indexes (RuleIndex),
 * market, derivatives, forecast and flow events turned into series values (MarketFeed, DerivativesFeed,
 * ProbabilityFeed, FlowWindows), and the condition, crossing,
 * cooldown and trigger-mode logic that decides each firing. The live evaluator and the backtest both drive it.
 */
export function createRuleEngine(options: RuleEngineOptions) {
  const { sink, clock, log } = options;
  const index = new RuleIndex();
  const flows = new FlowWindows(setValue);
  const market = new MarketFeed({ index, update: setValue, clock, log, history: options.history });
  const derivatives = new DerivativesFeed({
    index,
    update: setValue,
    clock,
    log,
    history: options.derivativesHistory,
  });
  const wakeMarket = new MinHeap<Live>();
  const wakeFlow = new MinHeap<Live>();
  const wakeDerivatives = new MinHeap<Live>();
  const probabilities = new ProbabilityFeed({ index, update: setValue });
  const wakePredictions = new MinHeap<Live>();
  let fired = 0;
  let visited = 0;

  const cooldownMs = (live: Live) => live.rule.trigger.cooldownSec * 1000;
  const coolingUntil = (live: Live) =>
    live.rule.trigger.mode === 'every' && live.lastEventAt !== null ? live.lastEventAt + cooldownMs(live) : 0;
  const wakeOf = (live: Live) =>
    live.series?.domain === 'flow' || live.bucket
      ? wakeFlow
      : live.series?.domain === 'derivatives'
        ? wakeDerivatives
        : live.series?.domain === 'predictions'
          ? wakePredictions
          : wakeMarket;

  /** The decision to fire: cheap, on the event's path; what it means is the sink's business. */
  function fire(live: Live, occasion: Occasion) {
    const rule = live.rule;
    fired++;
    live.lastEventAt = occasion.at;
    sink.fire(live, occasion);
    if (live.crossing) sink.dropSide(rule.id);
    if (rule.trigger.mode === 'once') remove(live);
    else if (!live.crossing) wakeOf(live).push(occasion.at + cooldownMs(live), live);
  }

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
      else sink.side(live);
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
        sink.side(live);
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

  function remove(live: Live) {
    if (live.gone) return;
    index.remove(live);
    sink.dropSide(live.rule.id);
  }

  return {
    index,
    /**
     * Places a rule and brings it in line with its series' current value. Returns the held rule and, for a
     * windowed flow rule that opened a new window, that window (to be filled from stored flows).
     */
    place(rule: AlertRule): { live: Live; newWindow?: FlowGroup } {
      const live = index.add(rule);
      const s = live.series;
      let newWindow: FlowGroup | undefined;
      if (s && rule.type === 'address_flow') {
        const window = rule.condition.window;
        newWindow = window ? flows.ensure(rule.condition, window, s) : undefined;
      } else if (s && rule.type !== 'address_flow') {
        if (isDerivativesRuleType(rule.type)) derivatives.warm(rule.symbol);
        else if (rule.type !== 'probability' && !s.key.startsWith('p:')) market.warm(rule.symbol);
      }
      if (s && s.value !== undefined && s.occasion) reconcile(live, s.value, s.occasion);
      return { live, newWindow };
    },
    remove,

    onSnapshot(p: SnapshotEvent) {
      market.onSnapshot(p);
      wakeMarket.popDue(p.at, (live) => recheck(live, p.at));
    },

    onCandle(p: CandleEvent) {
      market.onCandle(p);
    },

    /** A derivatives refresh: its values are compared on this refresh, so a crossing fires on it. */
    onDerivatives(p: DerivativesEvent) {
      derivatives.onUpdate(p);
      wakeDerivatives.popDue(p.at, (live) => recheck(live, p.at));
    },

    /** The levels probability rules watch on a symbol at a horizon (what to compute for a new datapoint). */
    probabilityLevels: (symbol: string, horizon: ProbabilityEvent['horizon']) =>
      probabilities.levels(symbol, horizon),

    /** A published forecast's level probabilities: compared on this datapoint, so a rule fires on it. */
    onProbabilities(p: ProbabilityEvent) {
      probabilities.onUpdate(p);
      wakePredictions.popDue(p.at, (live) => recheck(live, p.at));
    },

    /** A flow at `now`: single-transfer rules on its sides, then the windows it counts in. */
    onFlow(flow: FlowEvent, now: number) {
      const usd = flow.usdValue;
      if (typeof usd !== 'number' || !Number.isFinite(usd)) return; // no price known: cannot compare with minUsd
      const transfer = transferOf(flow);
      const asset = flow.asset.toUpperCase();
      for (const [target, direction] of sidesOf(flow)) {
        for (const live of index.bucketUpTo(target, usd)) {
          if (live.gone || live.rule.type !== 'address_flow') continue;
          const c = live.rule.condition;
          if (c.direction !== 'any' && c.direction !== direction) continue;
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
        flows.add(flow, target, direction, usd, now);
      }
      wakeFlow.popDue(flow.timestamp, (live) => recheck(live, flow.timestamp));
    },

    /** Merges stored flows into a new window; true if any were new. */
    mergeStoredFlows: (group: FlowGroup, list: FlowEvent[], now: number) =>
      flows.mergeStored(group, list, now),

    /** Takes the flows a reorg removed out of every window. */
    removeFlows: (ids: string[], now: number) => flows.remove(ids, now),

    /** Time passes to `now`: flows leave their windows, flow rules whose cooldown ended look again. */
    advance(now: number) {
      flows.decayAll(now);
      wakeFlow.popDue(now, (live) => recheck(live, now));
    },

    counts: () => ({ fired, visited }),
  };
}

export type RuleEngine = ReturnType<typeof createRuleEngine>;
