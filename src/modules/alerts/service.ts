import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import type { EventsTopics } from '../events/index.ts';
import type { AlertsTopics } from './topics.ts';
import type { Clock } from '../../shared/clock.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { AppError, type ProblemDetail } from '../../shared/errors.ts';
import type { SupportedSymbols } from '../identifiers/index.ts';
import {
  type BacktestView,
  type BacktestWindowInput,
  refuseUnreplayable,
  runBacktest,
} from './backtest-run.ts';
import type { BacktestSources, DerivativesCoverage } from './ports.ts';
import { cappedEventData, presentRule, type RuleView } from './present.ts';
import type { AlertsRepository } from './repository.ts';
import type { AlertRule, Normalized, RuleState, RuleType } from './rule.ts';
import { createRuleChecks } from './rule-checks.ts';
import { createRuleDrafts, type RuleInput, type RulePatchInput } from './rule-input.ts';
import { testRecord, writeTriggers } from './trigger-writer.ts';

export interface ListRulesInput {
  state?: RuleState;
  type?: RuleType;
  cursor?: string;
  limit?: number;
}

export interface Caller {
  accountId: string;
  plan: string;
}

const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

export interface AlertsService {
  create(caller: Caller, input: RuleInput): Promise<RuleView>;
  /**
   * Every time an unsaved rule would have fired over a past window (default the last 7 days), replayed from
   * stored candles or flows through the live evaluator's engine; 400 beyond the stored history.
   */
  backtest(
    caller: Caller,
    input: RuleInput,
    window: BacktestWindowInput,
  ): Promise<BacktestView & { normalized: Normalized[] }>;
  list(
    accountId: string,
    input: ListRulesInput,
  ): Promise<{ data: RuleView[]; nextCursor: string | null; applied: { limit: number } }>;
  get(accountId: string, id: string): Promise<RuleView>;
  update(caller: Caller, id: string, patch: RulePatchInput): Promise<RuleView>;
  remove(accountId: string, id: string): Promise<void>;
  /** Appends a `test: true` event for the rule through the same path as a real firing. */
  test(accountId: string, id: string): Promise<{ eventId: string; triggerId: string }>;
  /**
   * Problems of the fields that can be checked on their own — symbol, exchange, expiry — in a body whose
   * shape is otherwise wrong, so that one answer lists every problem. `skip`: pointers already reported.
   */
  fieldProblems(
    body: { symbol?: unknown; condition?: unknown; expiresAt?: unknown },
    skip: ReadonlySet<string>,
  ): ProblemDetail[];
  /** The rule's type, for routes that validate an edit against it; undefined when not the caller's. */
  typeOf(accountId: string, id: string): Promise<RuleType | undefined>;
  /** State → failing (webhook delivery exhausted). A rule that is not active is left as it is. */
  markRuleFailing(accountId: string, ruleId: string): Promise<void>;
  /**
   * The rule's hourly message cap holds until `until`: it reads as `capped` until then. The first call of an
   * episode appends one `alert.capped` event to the account's log; later calls only extend the cap.
   */
  markRuleCapped(accountId: string, ruleId: string, until: number): Promise<void>;
  ruleExists(accountId: string, ruleId: string): Promise<boolean>;
  /** Rules per state and the latest triggers (the dashboard's alerts section). */
  summarize(accountId: string, recentLimit: number): Promise<AlertsSummary>;
}

/** The dashboard's view of an account's alerts: rule counts per state, latest triggers with ISO times. */
export interface AlertsSummary {
  byState: Record<RuleState, number>;
  recentTriggers: Array<{
    triggerId: string;
    ruleId: string;
    ruleName: string | null;
    type: RuleType;
    firedAt: string;
    eventId: string;
    test: boolean;
  }>;
}

export interface AlertsServiceOptions {
  repo: AlertsRepository;
  bus: Bus<AlertsTopics & EventsTopics>;
  clock: Clock;
  /** The supported symbol set: price and volume rules watch one of these. */
  symbols: SupportedSymbols;
  /** Canonical exchange name, or throws `unknown_exchange` (the on-chain module's resolver). */
  resolveExchange(input: string): string;
  /** What the derivatives source can publish: funding, open-interest and liquidation rules are checked on it. */
  derivatives?: DerivativesCoverage;
  /** Live rules allowed per account, by plan. */
  caps: Record<string, number>;
  log?: { warn(obj: object, msg: string): void };
  /** Stored history a backtest reads; absent: backtests answer 503. */
  backtest?: BacktestSources;
}

/** A rule's position in a page cursor: [createdAt, id]. */
function rulePosition(value: unknown): { createdAt: number; id: string } | undefined {
  if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string')
    return { createdAt: value[0] as number, id: value[1] };
  return undefined;
}

export function createAlertsService(options: AlertsServiceOptions): AlertsService {
  const { repo, bus, clock } = options;
  const checks = createRuleChecks(options);
  const drafts = createRuleDrafts(checks, clock);

  const capOf = (plan: string) => options.caps[plan] ?? options.caps.standard ?? 50;

  const announce = (id: string) => {
    bus.publish(topics.alertRuleChanged, { id }).catch((error: unknown) => {
      // The evaluator's periodic sync picks the change up anyway, a few seconds later.
      options.log?.warn({ rule: id, err: String(error) }, 'alerts: announcing a rule change failed');
    });
  };

  const capError = (cap: number, plan: string) =>
    new AppError(
      'alert_limit_reached',
      `the ${plan} plan allows ${cap} active alert rules; pause or delete one first`,
      { extra: { limit: cap } },
    );

  async function own(accountId: string, id: string): Promise<AlertRule> {
    const rule = await repo.get(accountId, id);
    if (!rule) throw new AppError('not_found', `alert rule ${id} does not exist`);
    return rule;
  }

  return {
    async create(caller, input) {
      const rule = drafts.draftRule(caller.accountId, input);
      const cap = capOf(caller.plan);
      const result = await repo.create(rule, cap);
      if (!result.ok) throw capError(cap, caller.plan);
      announce(rule.id);
      return presentRule(rule, rule.createdAt);
    },

    async backtest(caller, input, window) {
      refuseUnreplayable(input.type);
      if (!options.backtest)
        throw new AppError('not_configured', 'backtests need the market and on-chain history of this server');
      const rule = drafts.draftRule(caller.accountId, input);
      return {
        ...(await runBacktest(rule, window, options.backtest, clock.now())),
        normalized: rule.normalized,
      };
    },

    async list(accountId, input) {
      const limit = Math.min(input.limit ?? DEFAULT_PAGE, MAX_PAGE);
      let before: { createdAt: number; id: string } | undefined;
      if (input.cursor !== undefined) {
        before = decodeCursor(input.cursor, rulePosition);
      }
      const rows = await repo.list(accountId, {
        state: input.state,
        type: input.type,
        before,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const now = clock.now();
      return {
        data: page.map((r) => presentRule(r, now)),
        nextCursor: rows.length > limit ? encodeCursor([page.at(-1)!.createdAt, page.at(-1)!.id]) : null,
        applied: { limit },
      };
    },

    async get(accountId, id) {
      return presentRule(await own(accountId, id), clock.now());
    },

    async update(caller, id, input) {
      const current = await own(caller.accountId, id);
      const patch = drafts.patchOf(current, input);
      const cap = capOf(caller.plan);
      const result = await repo.update(caller.accountId, id, patch, cap, clock.now());
      if (!result.ok) {
        if (result.reason === 'not_found') throw new AppError('not_found', `alert rule ${id} does not exist`);
        if (result.reason === 'cap_reached') throw capError(cap, caller.plan);
        throw new AppError(
          'conflict',
          `alert rule ${id} is ${current.state}, a final state; create a new rule`,
        );
      }
      announce(id);
      return presentRule(result.rule, clock.now());
    },

    async remove(accountId, id) {
      if (!(await repo.delete(accountId, id, clock.now())))
        throw new AppError('not_found', `alert rule ${id} does not exist`);
      announce(id);
    },

    async test(accountId, id) {
      const rule = await own(accountId, id);
      const now = clock.now();
      const record = testRecord(rule, now);
      const { events } = await writeTriggers({ repo, bus, log: options.log }, [record], now);
      const event = events[0];
      if (!event) throw new AppError('not_found', `alert rule ${id} does not exist`);
      return { eventId: event.id, triggerId: record.id };
    },

    fieldProblems: checks.fieldProblems,

    async typeOf(accountId, id) {
      return (await repo.get(accountId, id))?.type;
    },

    async markRuleCapped(accountId, ruleId, until) {
      const event = await repo.markCapped(accountId, ruleId, until, clock.now(), (rule) =>
        cappedEventData(rule, until),
      );
      if (!event) return;
      await bus.publish(topics.accountEvent, event).catch((error: unknown) => {
        // The event is stored: /events resumes and webhook scans read it from the log anyway.
        options.log?.warn(
          { event: event.id, err: String(error) },
          'alerts: announcing an account event failed',
        );
      });
    },

    async markRuleFailing(accountId, ruleId) {
      await repo.markFailing(accountId, ruleId, clock.now());
    },

    async ruleExists(accountId, ruleId) {
      return (await repo.get(accountId, ruleId)) !== undefined;
    },

    async summarize(accountId, recentLimit) {
      const { byState, recentTriggers } = await repo.overview(accountId, recentLimit);
      return {
        byState,
        recentTriggers: recentTriggers.map((t) => ({
          triggerId: t.triggerId,
          ruleId: t.ruleId,
          ruleName: t.ruleName,
          type: t.type,
          firedAt: new Date(t.firedAt).toISOString(),
          eventId: t.eventId,
          test: t.kind === 'test',
        })),
      };
    },
  };
}
