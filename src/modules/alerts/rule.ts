/** Alert rules: types, conditions, states — the domain vocabulary shared by the service and the evaluator. */

export const RULE_TYPES = ['price', 'volume', 'address_flow'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

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

export const FLOW_RULE_DIRECTIONS = ['in', 'out', 'any'] as const;
export type FlowRuleDirection = (typeof FLOW_RULE_DIRECTIONS)[number];

/**
 * active → (fires, once) → triggered (terminal); active → expired at expiresAt (terminal);
 * active ⇄ paused by the user; active → failing when webhook delivery is exhausted, failing → active on resume.
 */
export const RULE_STATES = ['active', 'paused', 'triggered', 'expired', 'failing'] as const;
export type RuleState = (typeof RULE_STATES)[number];
/** States the evaluator watches and the plan cap counts. */
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
  /** Upper-case asset symbol (ETH, USDT…); absent = any asset. */
  asset?: string;
  minUsd: number;
  /** Absent: a single transfer of at least minUsd; present: the windowed sum of matching transfers. */
  window?: RuleWindow;
}

export type Condition = PriceCondition | VolumeCondition | FlowCondition;

export interface RuleTrigger {
  mode: TriggerMode;
  cooldownSec: number;
}

export interface RuleChannels {
  /** Webhook endpoints to deliver to; empty = every endpoint of the account subscribed to the event type. */
  webhookIds: string[];
  /** Whether the account event stream (`/events`) carries this rule's events. */
  events: boolean;
}

/** A field the server changed on the way in, e.g. `symbol` `btc` → `BTCUSDT`. */
export interface Normalized {
  field: string;
  requested: string;
  used: string;
}

export interface AlertRule {
  id: string;
  accountId: string;
  name: string;
  type: RuleType;
  /** price and volume rules. */
  symbol: string | null;
  condition: Condition;
  trigger: RuleTrigger;
  expiresAt: number | null;
  channels: RuleChannels;
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

/** A rule whose condition is a crossing: it fires on the transition, not while the condition holds. */
export const isCrossing = (rule: Pick<AlertRule, 'type' | 'condition'>): boolean =>
  rule.type === 'price' &&
  ((rule.condition as PriceCondition).op === 'crosses_above' ||
    (rule.condition as PriceCondition).op === 'crosses_below');

/**
 * The state a reader should see: a live rule whose expiry has passed is expired even if the evaluator has not
 * swept it yet (it never fires after expiresAt).
 */
export function effectiveState(rule: Pick<AlertRule, 'state' | 'expiresAt'>, nowMs: number): RuleState {
  if (LIVE_STATES.includes(rule.state) && rule.expiresAt !== null && rule.expiresAt <= nowMs)
    return 'expired';
  return rule.state;
}

/** The default name: what the rule watches, e.g. `BTCUSDT crosses_above 100000`. */
export function defaultRuleName(type: RuleType, symbol: string | null, condition: Condition): string {
  if (type === 'address_flow') {
    const c = condition as FlowCondition;
    const target = c.exchange ?? c.address ?? '?';
    const span = c.window ? ` in ${c.window}` : '';
    return `${target} ${c.direction}${c.asset ? ` ${c.asset}` : ''} ≥ $${c.minUsd}${span}`;
  }
  const c = condition as PriceCondition | VolumeCondition;
  if (type === 'volume') return `${symbol} quote volume ${c.window} above ${c.value}`;
  return `${symbol} ${c.op} ${c.value}${c.window ? ` over ${c.window}` : ''}`;
}
