import { flowGroupKey, flowTarget } from './flow-sides.ts';
import type { Occasion } from './occasion.ts';
import type { Horizon } from '../identifiers/index.ts';
import { type AlertRule, type DerivativesWindow, isCrossing, type LiquidationSide } from './rule.ts';
import { type Sense, ThresholdIndex, upperBound } from './threshold-index.ts';

/** A rule as the evaluator holds it. */
export interface Live {
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

/** A numeric series rules compare with (a symbol's price, a windowed change or volume, a flow sum). */
export interface Series {
  key: string;
  index: ThresholdIndex<Live>;
  value: number | undefined;
  /** The event that set the current value (a firing at reconciliation or wake-up refers to it). */
  occasion: Occasion | undefined;
  domain: 'market' | 'flow' | 'derivatives' | 'predictions';
}

/** Where a rule sits: its series' key, the side of the threshold it holds on, and the threshold. */
export interface Placement {
  key: string;
  sense: Sense;
  threshold: number;
  domain: Series['domain'];
}

export const fundingKey = (symbol: string) => `d:f:${symbol}`;
export const openInterestKey = (window: DerivativesWindow, symbol: string) => `d:oi:${window}:${symbol}`;
export const liquidationsKey = (side: LiquidationSide, window: DerivativesWindow, symbol: string) =>
  `d:l:${side}:${window}:${symbol}`;
/** The prefix of every probability series of a symbol at a horizon; the level and kind follow it. */
export const probabilityPrefix = (symbol: string, horizon: Horizon) => `q:${symbol}:${horizon}:`;
export const probabilityKey = (symbol: string, horizon: Horizon, kind: string, level: number) =>
  `${probabilityPrefix(symbol, horizon)}${kind}:${level}`;

/**
 * Series keys: `p:<symbol>` price, `c:<window>:<symbol>` change %, `v:<window>:<symbol>` quote volume,
 * `f:<target>|<direction>|<asset>:<window>` windowed flow sum, `d:f:<symbol>` annualized funding,
 * `d:oi:<window>:<symbol>` open-interest change %, `d:l:<side>:<window>:<symbol>` liquidations USD,
 * `q:<symbol>:<horizon>:<kind>:<level>` a level's probability. Single-transfer flow rules have no series.
 */
export function placementOf(rule: AlertRule): Placement | undefined {
  switch (rule.type) {
    case 'price': {
      const c = rule.condition;
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
    case 'volume':
      return {
        key: `v:${rule.condition.window}:${rule.symbol}`,
        sense: 'up',
        threshold: rule.condition.value,
        domain: 'market',
      };
    case 'funding': {
      const sense: Sense = rule.condition.op === 'above' ? 'up' : 'down';
      return { key: fundingKey(rule.symbol), sense, threshold: rule.condition.value, domain: 'derivatives' };
    }
    case 'open_interest': {
      const c = rule.condition;
      const sense: Sense = c.op === 'above' ? 'up' : 'down';
      return {
        key: openInterestKey(c.window, rule.symbol),
        sense,
        threshold: c.value,
        domain: 'derivatives',
      };
    }
    case 'liquidations': {
      const c = rule.condition;
      return {
        key: liquidationsKey(c.side, c.window, rule.symbol),
        sense: 'up',
        threshold: c.value,
        domain: 'derivatives',
      };
    }
    case 'probability': {
      const c = rule.condition;
      return {
        key: probabilityKey(rule.symbol, c.horizon, c.kind, c.level),
        sense: c.op === 'above' ? 'up' : 'down',
        threshold: c.value,
        domain: 'predictions',
      };
    }
    case 'address_flow': {
      const c = rule.condition;
      if (!c.window) return undefined;
      return { key: `f:${flowGroupKey(c)}:${c.window}`, sense: 'up', threshold: c.minUsd, domain: 'flow' };
    }
  }
}

/**
 * The live rules, each in the threshold index of its series (see ThresholdIndex) or, for single-transfer
 * flow rules, in a bucket per target sorted by `minUsd`.
 */
export class RuleIndex {
  readonly lives = new Map<string, Live>();
  readonly series = new Map<string, Series>();
  private readonly buckets = new Map<string, Live[]>();
  /** The last price of every symbol, rules or not: a new price rule's side is taken from it. */
  readonly lastPrice = new Map<string, Occasion>();

  /** Places a rule and returns it as held; its series' current value is not applied here. */
  add(rule: AlertRule): Live {
    const live: Live = {
      rule,
      crossing: isCrossing(rule),
      sense: 'up',
      threshold: 0,
      satisfied: rule.lastSatisfied ?? undefined,
      lastEventAt: rule.lastEventAt,
      gone: false,
    };
    this.lives.set(rule.id, live);
    const place = placementOf(rule);
    if (!place) {
      if (rule.type !== 'address_flow') throw new Error(`rule ${rule.id} has no series`);
      live.bucket = flowTarget(rule.condition);
      live.threshold = rule.condition.minUsd;
      const list = this.buckets.get(live.bucket) ?? [];
      list.splice(upperBound(list, live.threshold), 0, live);
      this.buckets.set(live.bucket, list);
      return live;
    }
    live.sense = place.sense;
    live.threshold = place.threshold;
    live.series = this.seriesOf(place.key, place.domain);
    live.series.index.add(place.sense, place.threshold, live);
    return live;
  }

  /** Takes a rule out (it is marked gone, so work already queued for it is skipped). */
  remove(live: Live): void {
    if (live.gone) return;
    live.gone = true;
    this.lives.delete(live.rule.id);
    if (live.series) live.series.index.remove(live.sense, live.threshold, live);
    if (live.bucket) {
      const list = this.buckets.get(live.bucket);
      const i = list?.indexOf(live) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
    }
  }

  /** The single-transfer flow rules on `target` whose `minUsd` is at most `usd`. */
  bucketUpTo(target: string, usd: number): Live[] {
    const list = this.buckets.get(target);
    return list ? list.slice(0, upperBound(list, usd)) : [];
  }

  private seriesOf(key: string, domain: Series['domain']): Series {
    let s = this.series.get(key);
    if (!s) {
      const last = key.startsWith('p:') ? this.lastPrice.get(key.slice(2)) : undefined;
      s = {
        key,
        // A flow sum of at least minUsd holds at minUsd itself.
        index: new ThresholdIndex<Live>({ inclusive: domain === 'flow' }),
        value: last?.value,
        occasion: last,
        domain,
      };
      this.series.set(key, s);
    }
    return s;
  }
}
