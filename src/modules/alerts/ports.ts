/** The evaluator's ports — the histories it reads, its views of the bus payloads, its logger — and its face. */
import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { EventsTopics } from '../events/index.ts';
import type { Horizon } from '../identifiers/index.ts';
import type { MinuteBar } from './market-window.ts';
import type { AlertsRepository } from './repository.ts';
import type { AlertRule, DerivativesRuleType, FlowCondition } from './rule.ts';
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
 * Which symbols and metrics the derivatives source can ever publish. `gap` answers why a rule of `type` on
 * `symbol` could never fire (the field to name and a message), or undefined when it can (or is not known yet).
 */
export interface DerivativesCoverage {
  gap(symbol: string, type: DerivativesRuleType): { field: 'symbol' | 'type'; message: string } | undefined;
}

/** Stored merged derivatives series, so windowed open-interest changes and liquidation sums start complete. */
export interface DerivativesHistory {
  /** Open interest in USD per minute (`value`), or liquidations per minute (`long`, `short` USD). */
  openInterest(symbol: string, fromMs: number, toMs: number): Promise<Array<{ time: number; usd: number }>>;
  liquidations(
    symbol: string,
    fromMs: number,
    toMs: number,
  ): Promise<Array<{ time: number; longUsd: number; shortUsd: number }>>;
}

/**
 * The fields of a `derivatives.update` payload the evaluator reads: each symbol's merged funding and open
 * interest (null when absent), and the liquidation orders seen since the previous update.
 */
export interface DerivativesEvent {
  at: number;
  source: string;
  simulated: boolean;
  items: Array<{
    symbol: string;
    funding: { rate: number; annualizedPct: number } | null;
    openInterest: { usd: number | null } | null;
    /** Null when no venue of the symbol streams liquidations (absent, not 0). */
    liquidations: unknown;
    stale: boolean;
  }>;
  liquidations: Array<{ symbol: string; side: 'long' | 'short'; usd: number; time: string }>;
}

/** The fields of a `predictions.refreshed` datapoint the evaluator reads: which forecast was published. */
export interface PublishedDatapoint {
  symbol: string;
  horizon: Horizon;
  generatedAt: string;
}

/** One published datapoint's probabilities of the levels rules watch (what a probability rule compares). */
export interface ProbabilityEvent {
  symbol: string;
  horizon: Horizon;
  /** The datapoint's `generatedAt` (ms). */
  at: number;
  baseline: number;
  prediction: number;
  levels: Array<{ level: number; endAbove: number; touch: number }>;
}

/**
 * The probabilities of price levels from one stored forecast datapoint, computed as GET
 * /api/predictions/probability computes them (the predictions module's calibrated quantiles); undefined when
 * the datapoint is not (or no longer) stored.
 */
export interface PredictionLevels {
  at(
    symbol: string,
    horizon: Horizon,
    generatedAt: number,
    levels: readonly number[],
  ): Promise<Omit<ProbabilityEvent, 'symbol' | 'horizon' | 'at'> | undefined>;
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
  [topics.derivativesUpdate]: DerivativesEvent;
  [topics.predictionsRefreshed]: PublishedDatapoint[];
}

export interface EvaluatorOptions {
  repo: AlertsRepository;
  bus: Bus<EvaluatorTopics>;
  clock: Clock;
  log: AlertsLogger;
  history?: MarketHistory;
  flowHistory?: FlowHistory;
  derivativesHistory?: DerivativesHistory;
  /** The level probabilities of a published forecast; absent: probability rules never fire (logged once). */
  predictionLevels?: PredictionLevels;
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
  onDerivatives(payload: DerivativesEvent): void;
  /**
   * Published forecast datapoints: probability rules on their symbol and horizon are compared with the levels'
   * probabilities of each (read from storage, in publication order). Resolves once they are evaluated.
   */
  onPredictions(payload: PublishedDatapoint[]): Promise<void>;
  /** Applies a stored rule (created, edited, deleted) to the index. */
  apply(rule: AlertRule, deleted: boolean): void;
  /** Loads every live rule from the repository into the index. */
  loadAll(): Promise<void>;
  /** Expires due rules and decays flow windows at `clock.now()`. */
  sweep(): void;
  /** Resolves when every forecast and write queued so far (triggers, sides, expiries) is evaluated and stored. */
  idle(): Promise<void>;
  stats(): EvaluatorStats;
  /** Whether the rule is in the index (live and loaded). */
  isWatching(ruleId: string): boolean;
}

/** What a backtest reads: stored market bars and flows, and how far back they go. */
export interface BacktestSources {
  /** Closed merged 1-minute bars opened in [fromMs, toMs), oldest first, read from storage. */
  minuteBars(symbol: string, fromMs: number, toMs: number): Promise<MinuteBar[]>;
  /** Where a symbol's offered history starts now, and whether storage is still being filled towards it. */
  marketHistory(symbol: string): { from: number; backfilling: boolean };
  /**
   * Stored flows in [fromMs, toMs) that a condition could match (narrowed by its exchange and asset);
   * `complete` false when the read stopped at its bound before reaching `fromMs`; `source`: where flows come
   * from (simulated or the chain source).
   */
  flowsBetween(
    condition: FlowCondition,
    fromMs: number,
    toMs: number,
  ): Promise<{ flows: FlowEvent[]; complete: boolean; source: string }>;
  /** What the market data comes from: simulated, replay or ccxt:<venues>. */
  marketSource: string;
}
