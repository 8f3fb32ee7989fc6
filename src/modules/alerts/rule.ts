/** Alert rules: types, conditions, states — the domain vocabulary shared by the service and the evaluator. */
import { HORIZONS, type Horizon } from '../identifiers/index.ts';

export const RULE_TYPES = [
  'price',
  'volume',
  'address_flow',
  'funding',
  'open_interest',
  'liquidations',
  'probability',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];
/** Rules on a symbol's perpetual-futures metrics (the derivatives module's merged view). */
export const DERIVATIVES_RULE_TYPES = ['funding', 'open_interest', 'liquidations'] as const;
export type DerivativesRuleType = (typeof DERIVATIVES_RULE_TYPES)[number];
export const isDerivativesRuleType = (type: string): type is DerivativesRuleType =>
  (DERIVATIVES_RULE_TYPES as readonly string[]).includes(type);

export const PRICE_OPS = ['crosses_above', 'crosses_below', 'above', 'below', 'change_pct'] as const;
export type PriceOp = (typeof PRICE_OPS)[number];

export const RULE_WINDOWS = ['5m', '15m', '1h', '24h'] as const;
export type RuleWindow = (typeof RULE_WINDOWS)[number];
export const WINDOW_MS: Record<RuleWindow, number> = {
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '24h': 86_400_000,
};

/** Windows of open-interest change and liquidation sums. */
export const DERIVATIVES_WINDOWS = ['1h', '4h', '24h'] as const;
export type DerivativesWindow = (typeof DERIVATIVES_WINDOWS)[number];
export const DERIVATIVES_WINDOW_MS: Record<DerivativesWindow, number> = {
  '1h': 3_600_000,
  '4h': 14_400_000,
  '24h': 86_400_000,
};
export const LEVEL_OPS = ['above', 'below'] as const;
export type LevelOp = (typeof LEVEL_OPS)[number];
export const LIQUIDATION_SIDES = ['long', 'short', 'any'] as const;
export type LiquidationSide = (typeof LIQUIDATION_SIDES)[number];

/** What a probability rule reads of a level: ending above it at the horizon, or touching it before. */
export const PROBABILITY_KINDS = ['end_above', 'touch'] as const;
export type ProbabilityKind = (typeof PROBABILITY_KINDS)[number];
/** The forecast horizons a probability rule can watch (those the predictions are published at). */
export const PROBABILITY_HORIZONS = HORIZONS;

export const FLOW_RULE_DIRECTIONS = ['in', 'out', 'any'] as const;
export type FlowRuleDirection = (typeof FLOW_RULE_DIRECTIONS)[number];

/**
 * active → (fires, once) → triggered (terminal); active → expired at expiresAt (terminal);
 * active ⇄ paused by the user; active → failing when webhook delivery is exhausted, failing → active on resume.
 */
export const RULE_STATES = ['active', 'paused', 'triggered', 'expired', 'failing', 'capped'] as const;
export type RuleState = (typeof RULE_STATES)[number];
/**
 * States the evaluator watches and the plan cap counts. `capped` is never stored: an active rule reads as
 * capped while its hourly message cap holds (`cappedUntil`); it keeps being evaluated and its events recorded.
 */
export const LIVE_STATES: readonly RuleState[] = ['active', 'failing'];

export const TRIGGER_MODES = ['once', 'every'] as const;
export type TriggerMode = (typeof TRIGGER_MODES)[number];
export const DEFAULT_COOLDOWN_SEC = 300;

export interface PriceCondition {
  op: PriceOp;
  /** Quote-currency price, or percent for `change_pct` (negative: a fall of more than |value| %). */
  value: number;
  /** `change_pct` only. */
  window?: RuleWindow;
}

export interface VolumeCondition {
  op: 'above';
  /** Quote volume (USD) over the window. */
  value: number;
  window: RuleWindow;
}

export interface FlowCondition {
  direction: FlowRuleDirection;
  /** Exactly one of exchange (canonical name) and address (lower-case 0x…). */
  exchange?: string;
  address?: string;
  /** The private label the rule was made on (its address is `address`), when it was. */
  label?: string;
  /** Upper-case asset symbol (ETH, USDT…); absent = any asset. */
  asset?: string;
  minUsd: number;
  /** Absent: a single transfer of at least minUsd; present: the windowed sum of matching transfers. */
  window?: RuleWindow;
}

/** The merged funding rate, annualized: `rate × (8760 / intervalHours) × 100` (percent a year, simple). */
export interface FundingCondition {
  op: LevelOp;
  /** Annualized percent (10.95 = 0.01 % per 8 h period); negative: shorts pay longs. */
  value: number;
}

/** The change of merged open interest (USD) over the window, in percent (negative: a fall). */
export interface OpenInterestCondition {
  op: LevelOp;
  value: number;
  window: DerivativesWindow;
}

/** Liquidations (USD) of the side over the window, summed over the venues that stream them. */
export interface LiquidationsCondition {
  op: 'above';
  value: number;
  side: LiquidationSide;
  window: DerivativesWindow;
}

/**
 * The calibrated probability of a price level from each newly published forecast datapoint of the symbol at the
 * horizon (GET /api/predictions/probability computes the same number).
 */
export interface ProbabilityCondition {
  horizon: Horizon;
  /** The price level (quote currency). */
  level: number;
  kind: ProbabilityKind;
  op: LevelOp;
  /** The probability threshold, 0–1. */
  value: number;
}

export type Condition =
  | ProbabilityCondition
  | PriceCondition
  | VolumeCondition
  | FlowCondition
  | FundingCondition
  | OpenInterestCondition
  | LiquidationsCondition;

export interface RuleTrigger {
  mode: TriggerMode;
  cooldownSec: number;
}

export interface RuleChannels {
  /** Webhook endpoints to deliver to; empty = every endpoint of the account subscribed to the event type. */
  webhookIds: string[];
  /** Whether the account event stream (`/events`) carries this rule's events. */
  events: boolean;
  /** Alert channels (ch_…: email, Telegram, Discord, Slack) that receive this rule's messages. */
  channelIds?: string[];
}

/** A field the server changed on the way in, e.g. `symbol` `btc` → `BTCUSDT`. */
export interface Normalized {
  field: string;
  requested: string;
  used: string;
}

interface RuleFields {
  id: string;
  accountId: string;
  name: string;
  trigger: RuleTrigger;
  expiresAt: number | null;
  channels: RuleChannels;
  /** The message template of its channel messages; null: the default of its type. */
  template?: string | null;
  /** Until when its hourly message cap holds (its messages are recorded as capped, not sent). */
  cappedUntil?: number | null;
  normalized: Normalized[];
  state: RuleState;
  /** Bumped by every user edit; the evaluator drops work computed for an older version. */
  version: number;
  /** Crossing rules: whether the condition held at the last evaluation; null = not evaluated yet. */
  lastSatisfied: boolean | null;
  /** Event time of the last trigger: the cooldown runs from it. */
  lastEventAt: number | null;
  lastTriggeredAt: number | null;
  triggerCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface PriceRule extends RuleFields {
  type: 'price';
  symbol: string;
  condition: PriceCondition;
}

export interface VolumeRule extends RuleFields {
  type: 'volume';
  symbol: string;
  condition: VolumeCondition;
}

export interface FlowRule extends RuleFields {
  type: 'address_flow';
  symbol: null;
  condition: FlowCondition;
}

export interface FundingRule extends RuleFields {
  type: 'funding';
  symbol: string;
  condition: FundingCondition;
}

export interface OpenInterestRule extends RuleFields {
  type: 'open_interest';
  symbol: string;
  condition: OpenInterestCondition;
}

export interface LiquidationsRule extends RuleFields {
  type: 'liquidations';
  symbol: string;
  condition: LiquidationsCondition;
}

export interface ProbabilityRule extends RuleFields {
  type: 'probability';
  symbol: string;
  condition: ProbabilityCondition;
}

export type DerivativesRule = FundingRule | OpenInterestRule | LiquidationsRule;
export type AlertRule = PriceRule | VolumeRule | FlowRule | DerivativesRule | ProbabilityRule;

type Watch<R> = R extends AlertRule ? Pick<R, 'type' | 'symbol' | 'condition'> : never;
/** What a rule watches: its type, with the symbol and the condition of that type. */
export type RuleWatch = Watch<AlertRule>;

/** What a stored rule watches, from its columns: the stored type says which condition the JSON holds. */
export function storedWatch(type: string, symbol: string | null, conditionJson: string): RuleWatch {
  const condition = JSON.parse(conditionJson);
  switch (type) {
    case 'price':
    case 'volume':
    case 'funding':
    case 'open_interest':
    case 'liquidations':
    case 'probability':
      return { type, symbol: symbol ?? '', condition };
    case 'address_flow':
      return { type, symbol: null, condition };
    default:
      throw new Error(`alert rule of unknown type ${type}`);
  }
}

/** A rule whose condition is a crossing: it fires on the transition, not while the condition holds. */
export const isCrossing = (rule: RuleWatch): boolean =>
  rule.type === 'price' && (rule.condition.op === 'crosses_above' || rule.condition.op === 'crosses_below');

/**
 * The state a reader should see: a live rule whose expiry has passed is expired even if the evaluator has not
 * swept it yet (it never fires after expiresAt).
 */
export function effectiveState(
  rule: Pick<AlertRule, 'state' | 'expiresAt' | 'cappedUntil'>,
  nowMs: number,
): RuleState {
  if (LIVE_STATES.includes(rule.state) && rule.expiresAt !== null && rule.expiresAt <= nowMs)
    return 'expired';
  if (rule.state === 'active' && rule.cappedUntil && rule.cappedUntil > nowMs) return 'capped';
  return rule.state;
}

/** The default name: what the rule watches, e.g. `BTCUSDT crosses_above 100000`. */
export function defaultRuleName(rule: RuleWatch): string {
  if (rule.type === 'address_flow') {
    const c = rule.condition;
    const target = c.exchange ?? c.address ?? '?';
    const span = c.window ? ` in ${c.window}` : '';
    return `${target} ${c.direction}${c.asset ? ` ${c.asset}` : ''} ≥ $${c.minUsd}${span}`;
  }
  switch (rule.type) {
    case 'funding':
      return `${rule.symbol} funding ${rule.condition.op} ${rule.condition.value} %/yr`;
    case 'open_interest':
      return `${rule.symbol} open interest ${rule.condition.window} change ${rule.condition.op} ${rule.condition.value} %`;
    case 'liquidations': {
      const c = rule.condition;
      return `${rule.symbol} ${c.side === 'any' ? '' : `${c.side} `}liquidations ${c.window} above $${c.value}`;
    }
    case 'probability': {
      const c = rule.condition;
      const what = c.kind === 'touch' ? 'touches' : 'ends above';
      return `${rule.symbol} ${what} ${c.level} within ${c.horizon}: probability ${c.op} ${c.value}`;
    }
  }
  const c = rule.condition;
  if (rule.type === 'volume') return `${rule.symbol} quote volume ${c.window} above ${c.value}`;
  return `${rule.symbol} ${c.op} ${c.value}${c.window ? ` over ${c.window}` : ''}`;
}
