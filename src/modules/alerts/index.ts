/**
 * Alerts module — public face. Rules (price, volume, address_flow; funding, open_interest, liquidations;
 * probability) stored per account, evaluated by a leader-elected job on the market, derivatives, forecast
 * and on-chain events, firing exactly once into the account event log.
 */
export {
  type BacktestView,
  type BacktestWindowInput,
  DEFAULT_BACKTEST_DAYS,
  MAX_BACKTEST_DAYS,
  MAX_LISTED_FIRINGS,
} from './backtest-run.ts';
export { createEvaluator } from './evaluator.ts';
export type {
  AlertsLogger,
  BacktestSources,
  DerivativesCoverage,
  DerivativesEvent,
  DerivativesHistory,
  Evaluator,
  EvaluatorOptions,
  EvaluatorStats,
  FlowEvent,
  FlowHistory,
  MarketHistory,
  PredictionLevels,
  ProbabilityEvent,
  PublishedDatapoint,
} from './ports.ts';
export type { MinuteBar } from './market-window.ts';
export { presentRule, type RuleView, ruleSummary } from './present.ts';
export {
  type AlertsRepository,
  createMemoryAlertsRepository,
  type StoredTrigger,
  type TriggerRecord,
} from './repository.ts';
export { createKyselyAlertsRepository } from './repository.kysely.ts';
export {
  type AlertRule,
  DEFAULT_COOLDOWN_SEC,
  DERIVATIVES_RULE_TYPES,
  DERIVATIVES_WINDOWS,
  type DerivativesRuleType,
  FLOW_RULE_DIRECTIONS,
  LEVEL_OPS,
  LIQUIDATION_SIDES,
  PRICE_OPS,
  PROBABILITY_HORIZONS,
  PROBABILITY_KINDS,
  RULE_STATES,
  RULE_TYPES,
  RULE_WINDOWS,
  type RuleState,
  type RuleType,
  TRIGGER_MODES,
} from './rule.ts';
export {
  type AlertsService,
  type Caller,
  createAlertsService,
  MAX_PAGE,
} from './service.ts';
export type { RuleInput, RulePatchInput } from './rule-input.ts';
export type { AlertsTables } from './tables.ts';
export { type AlertRuleChanged, type AlertsTopics, alertsTopicDecoders } from './topics.ts';
