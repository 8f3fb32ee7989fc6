import { type ProblemDetail, validationError } from '../../shared/errors.ts';
import {
  type BacktestFiring,
  backtestRule,
  backtestTotals,
  replayFlowRule,
  replayMarketRule,
} from './backtest.ts';
import type { BacktestSources } from './ports.ts';
import {
  type AlertRule,
  type DerivativesRule,
  isDerivativesRuleType,
  type ProbabilityRule,
  type RuleType,
  WINDOW_MS,
} from './rule.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
export const DEFAULT_BACKTEST_DAYS = 7;
export const MAX_BACKTEST_DAYS = 31;
/** Firings listed in an answer; the totals count them all. */
export const MAX_LISTED_FIRINGS = 1000;

export interface BacktestWindowInput {
  from?: string;
  to?: string;
  days?: number;
}

/** What the replay read: its source and how much of the window storage held. */
export interface BacktestData {
  source: string;
  simulated: boolean;
  /** Price and volume rules: the stored 1-minute candles replayed, and the window's minutes without one. */
  candles?: number;
  missingMinutes?: number;
  /** Whether storage is still being filled towards `availableFrom` (the window may gain candles later). */
  backfilling?: boolean;
  availableFrom?: string;
  /** Flow rules: the stored flows read, and whether the read reached the window's start. */
  flows?: number;
  complete?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Refuses a rule type storage cannot replay: derivatives refreshes (funding, open interest, liquidations) are
 * not kept as a replayable stream, and no per-level probability history is stored (a probability rule reads
 * each forecast as it is published), so such a backtest would answer with firings it never saw.
 */
export function refuseUnreplayable(type: RuleType): void {
  if (isDerivativesRuleType(type) || type === 'probability') throw unreplayable(type);
}

const unreplayable = (type: RuleType) =>
  validationError([
    {
      pointer: '/body/type',
      message:
        type === 'probability'
          ? 'probability rules cannot be backtested: no per-level probability history is stored to replay (each is computed from a forecast as it is published)'
          : `${type} rules cannot be backtested: stored history holds no derivatives refreshes to replay`,
    },
  ]);

const replayable = (rule: AlertRule): rule is Exclude<AlertRule, DerivativesRule | ProbabilityRule> =>
  !isDerivativesRuleType(rule.type) && rule.type !== 'probability';

/** The window [from, to): `days` back from `to` (now by default), or `from`…`to`; whole minutes. */
function resolveWindow(input: BacktestWindowInput, now: number, problems: ProblemDetail[]) {
  const parse = (name: 'from' | 'to') => {
    const raw = input[name];
    if (raw === undefined) return undefined;
    const ms = Date.parse(raw);
    if (Number.isNaN(ms)) problems.push({ pointer: `/query/${name}`, message: 'must be an ISO 8601 time' });
    return ms;
  };
  const fromIn = parse('from');
  const toIn = parse('to');
  if (input.days !== undefined && fromIn !== undefined)
    problems.push({ pointer: '/query/days', message: 'give either days or from, not both' });
  const to = Math.floor(Math.min(toIn ?? now, now) / MINUTE) * MINUTE;
  if (toIn !== undefined && toIn > now)
    problems.push({ pointer: '/query/to', message: 'must not be in the future' });
  const from = Math.ceil((fromIn ?? to - (input.days ?? DEFAULT_BACKTEST_DAYS) * DAY) / MINUTE) * MINUTE;
  if (problems.length === 0 && from >= to)
    problems.push({ pointer: '/query/from', message: 'must be before to (at least a minute)' });
  if (problems.length === 0 && to - from > MAX_BACKTEST_DAYS * DAY)
    problems.push({
      pointer: input.days !== undefined ? '/query/days' : '/query/from',
      message: `the window may span at most ${MAX_BACKTEST_DAYS} days`,
    });
  return { from, to };
}

/**
 * A backtest of an unsaved rule: the window checked against stored history, the stored bars (or flows) read,
 * replayed through the live evaluator's engine, and the firings with their totals.
 */
export async function runBacktest(
  draft: AlertRule,
  input: BacktestWindowInput,
  sources: BacktestSources,
  now: number,
) {
  if (!replayable(draft)) throw unreplayable(draft.type);
  const problems: ProblemDetail[] = [];
  const { from, to } = resolveWindow(input, now, problems);
  if (problems.length) throw validationError(problems);
  const rule = backtestRule(draft, from);
  let firings: BacktestFiring[];
  let data: BacktestData;
  if (rule.type === 'address_flow') {
    const read = await sources.flowsBetween(rule.condition, from, to);
    firings = replayFlowRule(rule, read.flows, from, to);
    data = {
      source: read.source,
      simulated: read.source.startsWith('simulated'),
      flows: read.flows.length,
      complete: read.complete,
    };
  } else {
    const history = sources.marketHistory(rule.symbol);
    if (from < history.from)
      throw validationError([
        {
          pointer: input.days !== undefined ? '/query/days' : '/query/from',
          message: `stored history of ${rule.symbol} starts at ${iso(history.from)}; pick a later from or fewer days`,
        },
      ]);
    const span = rule.condition.window;
    const warmFrom = span ? Math.max(history.from, from - WINDOW_MS[span] - 2 * MINUTE) : from;
    const closed = (bars: Awaited<ReturnType<BacktestSources['minuteBars']>>) =>
      bars.filter((b) => b.openTime + MINUTE <= now);
    const [warmup, bars] = await Promise.all([
      warmFrom < from ? sources.minuteBars(rule.symbol, warmFrom, from) : Promise.resolve([]),
      sources.minuteBars(rule.symbol, from, to),
    ]);
    const window = closed(bars);
    firings = replayMarketRule(rule, closed(warmup), window);
    data = {
      source: sources.marketSource,
      simulated: sources.marketSource === 'simulated',
      candles: window.length,
      missingMinutes: Math.max(0, (to - from) / MINUTE - window.length),
      backfilling: history.backfilling,
      availableFrom: iso(history.from),
    };
  }
  const totals = backtestTotals(firings, from, to);
  return {
    rule: {
      type: rule.type,
      ...(rule.symbol !== null ? { symbol: rule.symbol } : {}),
      condition: rule.condition,
      trigger: rule.trigger,
    },
    window: { from: iso(from), to: iso(to) },
    firings: firings.slice(0, MAX_LISTED_FIRINGS).map((f) => ({
      at: iso(f.at),
      value: f.value,
      ...(f.flowId ? { flowId: f.flowId } : {}),
    })),
    firingsListed: Math.min(firings.length, MAX_LISTED_FIRINGS),
    totals: {
      firings: totals.firings,
      first: totals.first === null ? null : iso(totals.first),
      last: totals.last === null ? null : iso(totals.last),
      perDay: totals.perDay,
    },
    data,
  };
}

export type BacktestView = Awaited<ReturnType<typeof runBacktest>>;
