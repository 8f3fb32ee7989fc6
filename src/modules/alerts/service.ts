import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import type { EventsTopics } from '../events/index.ts';
import type { AlertsTopics } from './topics.ts';
import type { Clock } from '../../shared/clock.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { AppError, type ProblemDetail, validationError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { SupportedSymbols } from '../identifiers/index.ts';
import { presentRule, type RuleView, ruleSummary } from './present.ts';
import type { AlertsRepository, RulePatch } from './repository.ts';
import {
  type AlertRule,
  type Condition,
  DEFAULT_COOLDOWN_SEC,
  defaultRuleName,
  FLOW_RULE_DIRECTIONS,
  type FlowCondition,
  type FlowRuleDirection,
  type Normalized,
  PRICE_OPS,
  type PriceOp,
  RULE_WINDOWS,
  type RuleChannels,
  type RuleState,
  type RuleTrigger,
  type RuleType,
  type RuleWindow,
  type TriggerMode,
} from './rule.ts';

/** A rule as the client sends it (shape already checked by the route's schema). */
export interface RuleInput {
  type: RuleType;
  symbol?: string;
  condition: Record<string, unknown>;
  trigger?: { mode?: TriggerMode; cooldownSec?: number };
  expiresAt?: string | null;
  name?: string;
  channels?: { webhookIds?: string[]; events?: boolean };
}

export interface RulePatchInput {
  name?: string;
  state?: 'active' | 'paused';
  symbol?: string;
  condition?: Record<string, unknown>;
  trigger?: { mode?: TriggerMode; cooldownSec?: number };
  expiresAt?: string | null;
  channels?: { webhookIds?: string[]; events?: boolean };
}

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
  /** Live rules allowed per account, by plan. */
  caps: Record<string, number>;
  log?: { warn(obj: object, msg: string): void };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ASSET = /^[A-Za-z0-9.]{1,20}$/;

/** A rule's position in a page cursor: [createdAt, id]. */
function rulePosition(value: unknown): { createdAt: number; id: string } | undefined {
  if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string')
    return { createdAt: value[0] as number, id: value[1] };
  return undefined;
}

export function createAlertsService(options: AlertsServiceOptions): AlertsService {
  const { repo, bus, clock } = options;

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

  /** Symbol of a price or volume rule, strictly: a rule on an unsupported symbol must not watch another. */
  function resolveSymbol(input: string, problems: ProblemDetail[], normalized: Normalized[]): string | null {
    try {
      const s = options.symbols.normalize(input, { strict: true });
      if (s.changed) normalized.push({ field: 'symbol', requested: input, used: s.value });
      return s.value;
    } catch {
      problems.push({
        pointer: '/body/symbol',
        message: `must be one of ${options.symbols.list.join(', ')}`,
      });
      return null;
    }
  }

  /**
   * Checks a condition against its rule type and returns it normalized. The route's schema has checked the
   * shape of each kind of condition; an edit is checked here against the stored rule's type.
   */
  function checkCondition(
    type: RuleType,
    raw: Record<string, unknown>,
    problems: ProblemDetail[],
    normalized: Normalized[],
  ): Condition {
    const at = '/body/condition';
    const need = (field: string, ok: boolean, message: string) => {
      if (!ok) problems.push({ pointer: `${at}/${field}`, message });
      return ok;
    };
    const isWindow = (w: unknown): w is RuleWindow => RULE_WINDOWS.includes(w as RuleWindow);
    const allowOnly = (fields: string[]) => {
      for (const key of Object.keys(raw))
        if (!fields.includes(key))
          problems.push({ pointer: `${at}/${key}`, message: `is not accepted in a ${type} condition` });
    };
    if (type === 'price') {
      allowOnly(['op', 'value', 'window']);
      const { op, value, window } = raw;
      need('op', PRICE_OPS.includes(op as PriceOp), `must be one of ${PRICE_OPS.join(', ')}`);
      if (!need('value', typeof value === 'number' && Number.isFinite(value), 'must be a number'))
        return raw as unknown as Condition;
      if (op === 'change_pct') {
        if (window === undefined) need('window', false, 'is required for change_pct');
        else need('window', isWindow(window), `must be one of ${RULE_WINDOWS.join(', ')}`);
        need('value', value !== 0, 'must not be 0 (percent; negative = a fall)');
      } else {
        need('window', window === undefined, 'is only accepted with op change_pct');
        need('value', (value as number) > 0, 'must be a price greater than 0');
      }
      return {
        op: op as PriceOp,
        value: value as number,
        ...(window !== undefined ? { window: window as RuleWindow } : {}),
      };
    }
    if (type === 'volume') {
      allowOnly(['op', 'value', 'window']);
      need('op', raw.op === 'above', 'must be above');
      need('value', typeof raw.value === 'number' && raw.value > 0, 'must be a quote volume greater than 0');
      need('window', isWindow(raw.window), `must be one of ${RULE_WINDOWS.join(', ')}`);
      return { op: 'above', value: raw.value as number, window: raw.window as RuleWindow };
    }
    allowOnly(['direction', 'exchange', 'address', 'asset', 'minUsd', 'window']);
    const c = raw as Partial<Record<keyof FlowCondition, unknown>>;
    need(
      'direction',
      FLOW_RULE_DIRECTIONS.includes(c.direction as FlowRuleDirection),
      `must be one of ${FLOW_RULE_DIRECTIONS.join(', ')}`,
    );
    need('minUsd', typeof c.minUsd === 'number' && c.minUsd >= 0, 'must be a number of USD, 0 or more');
    if (c.window !== undefined)
      need('window', isWindow(c.window), `must be one of ${RULE_WINDOWS.join(', ')}`);
    const out: FlowCondition = { direction: c.direction as FlowRuleDirection, minUsd: c.minUsd as number };
    if (c.exchange !== undefined && c.address !== undefined)
      problems.push({ pointer: `${at}/address`, message: 'give exchange or address, not both' });
    else if (c.exchange === undefined && c.address === undefined)
      problems.push({ pointer: `${at}/exchange`, message: 'is required when address is absent' });
    if (c.exchange !== undefined) {
      const exchange = exchangeOf(c.exchange, `${at}/exchange`, problems);
      if (exchange !== undefined) {
        out.exchange = exchange;
        if (exchange !== c.exchange)
          normalized.push({ field: 'condition.exchange', requested: String(c.exchange), used: exchange });
      }
    }
    if (c.address !== undefined) {
      if (typeof c.address !== 'string' || !ADDRESS.test(c.address)) {
        problems.push({ pointer: `${at}/address`, message: 'must be a 0x-prefixed 20-byte hex address' });
      } else {
        out.address = c.address.toLowerCase();
        if (out.address !== c.address)
          normalized.push({ field: 'condition.address', requested: c.address, used: out.address });
      }
    }
    if (c.asset !== undefined) {
      if (
        need(
          'asset',
          typeof c.asset === 'string' && ASSET.test(c.asset.trim()),
          'must be an asset symbol such as ETH or USDT',
        )
      ) {
        out.asset = (c.asset as string).trim().toUpperCase();
        if (out.asset !== c.asset)
          normalized.push({ field: 'condition.asset', requested: c.asset as string, used: out.asset });
      }
    }
    if (c.window !== undefined) out.window = c.window as RuleWindow;
    return out;
  }

  function exchangeOf(input: unknown, pointer: string, problems: ProblemDetail[]): string | undefined {
    if (typeof input !== 'string') return undefined;
    try {
      return options.resolveExchange(input);
    } catch (error) {
      const known = error instanceof AppError ? (error.extra?.known as string[] | undefined) : undefined;
      problems.push({
        pointer,
        message: known ? `must be one of ${known.join(', ')}` : 'is not a known exchange',
      });
      return undefined;
    }
  }

  function checkExpiry(value: string | null | undefined, problems: ProblemDetail[]): number | null {
    if (value === undefined || value === null) return null;
    const ms = Date.parse(value);
    if (!Number.isFinite(ms)) {
      problems.push({ pointer: '/body/expiresAt', message: 'must be an ISO 8601 date-time' });
      return null;
    }
    if (ms <= clock.now()) problems.push({ pointer: '/body/expiresAt', message: 'must be in the future' });
    return ms;
  }

  const triggerOf = (input: RuleInput['trigger'], base?: RuleTrigger): RuleTrigger => ({
    mode: input?.mode ?? base?.mode ?? 'once',
    cooldownSec: input?.cooldownSec ?? base?.cooldownSec ?? DEFAULT_COOLDOWN_SEC,
  });
  const channelsOf = (input: RuleInput['channels'], base?: RuleChannels): RuleChannels => ({
    webhookIds: input?.webhookIds ?? base?.webhookIds ?? [],
    events: input?.events ?? base?.events ?? true,
  });

  async function own(accountId: string, id: string): Promise<AlertRule> {
    const rule = await repo.get(accountId, id);
    if (!rule) throw new AppError('not_found', `alert rule ${id} does not exist`);
    return rule;
  }

  return {
    async create(caller, input) {
      const problems: ProblemDetail[] = [];
      const normalized: Normalized[] = [];
      const symbol =
        input.type === 'address_flow' || input.symbol === undefined
          ? null
          : resolveSymbol(input.symbol, problems, normalized);
      const condition = checkCondition(input.type, input.condition, problems, normalized);
      const expiresAt = checkExpiry(input.expiresAt, problems);
      if (problems.length) throw validationError(problems);
      const now = clock.now();
      const rule: AlertRule = {
        id: newId('alr'),
        accountId: caller.accountId,
        name: input.name?.trim() || defaultRuleName(input.type, symbol, condition),
        type: input.type,
        symbol,
        condition,
        trigger: triggerOf(input.trigger),
        expiresAt,
        channels: channelsOf(input.channels),
        normalized,
        state: 'active',
        version: 1,
        lastSatisfied: null,
        lastEventAt: null,
        lastTriggeredAt: null,
        triggerCount: 0,
        createdAt: now,
        updatedAt: now,
      };
      const cap = capOf(caller.plan);
      const result = await repo.create(rule, cap);
      if (!result.ok) throw capError(cap, caller.plan);
      announce(rule.id);
      return presentRule(rule, now);
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
      const problems: ProblemDetail[] = [];
      const normalized: Normalized[] = [];
      const patch: RulePatch = {};
      if (input.symbol !== undefined) {
        if (current.type === 'address_flow')
          problems.push({ pointer: '/body/symbol', message: 'is not used by address_flow rules' });
        else {
          const symbol = resolveSymbol(input.symbol, problems, normalized);
          if (symbol !== null) patch.symbol = symbol;
        }
      }
      if (input.condition !== undefined)
        patch.condition = checkCondition(current.type, input.condition, problems, normalized);
      if (input.expiresAt !== undefined) patch.expiresAt = checkExpiry(input.expiresAt, problems);
      if (problems.length) throw validationError(problems);
      if (input.name !== undefined) patch.name = input.name.trim() || current.name;
      if (input.trigger !== undefined) patch.trigger = triggerOf(input.trigger, current.trigger);
      if (input.channels !== undefined) patch.channels = channelsOf(input.channels, current.channels);
      if (input.state !== undefined && input.state !== current.state) patch.state = input.state;
      const watched = patch.symbol !== undefined || patch.condition !== undefined;
      if (watched) {
        patch.resetSide = true;
        // What was normalized now replaces the notes of the fields it concerns.
        const touched = new Set(normalized.map((n) => n.field));
        if (patch.symbol !== undefined) touched.add('symbol');
        if (patch.condition !== undefined)
          for (const f of ['condition.exchange', 'condition.address', 'condition.asset']) touched.add(f);
        patch.normalized = [...current.normalized.filter((n) => !touched.has(n.field)), ...normalized];
      }
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
      const triggerId = newId('trg');
      const now = clock.now();
      const { events } = await repo.recordTriggers(
        [
          {
            id: triggerId,
            ruleId: rule.id,
            accountId,
            kind: 'test',
            eventKey: `test:${triggerId}`,
            eventAt: now,
            eventType: rule.type === 'address_flow' ? 'onchain.flow' : 'alert.triggered',
            test: true,
            data: {
              ...(rule.type === 'address_flow' ? { status: 'confirmed' } : {}),
              rule: ruleSummary(rule),
              trigger: { id: triggerId, firedAt: new Date(now).toISOString(), test: true },
              note: 'a test event: no condition was evaluated',
            },
          },
        ],
        now,
      );
      const event = events[0];
      if (!event) throw new AppError('not_found', `alert rule ${id} does not exist`);
      await bus.publish(topics.accountEvent, event).catch((error: unknown) => {
        options.log?.warn({ event: event.id, err: String(error) }, 'alerts: announcing a test event failed');
      });
      return { eventId: event.id, triggerId };
    },

    fieldProblems(body, skip) {
      const problems: ProblemDetail[] = [];
      if (typeof body.symbol === 'string' && !skip.has('/body/symbol'))
        resolveSymbol(body.symbol, problems, []);
      const exchange = (body.condition as { exchange?: unknown } | undefined)?.exchange;
      if (typeof exchange === 'string' && !skip.has('/body/condition/exchange'))
        exchangeOf(exchange, '/body/condition/exchange', problems);
      if (typeof body.expiresAt === 'string' && !skip.has('/body/expiresAt'))
        checkExpiry(body.expiresAt, problems);
      return problems;
    },

    async typeOf(accountId, id) {
      return (await repo.get(accountId, id))?.type;
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
