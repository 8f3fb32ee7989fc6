import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import type { AccountEvent, EventType, NewAccountEvent } from '../events/index.ts';
import { type AlertRule, LIVE_STATES, type RuleState, type RuleType } from './rule.ts';

/** What a trigger row records: a firing, a reorg retraction of one, or a test event. */
export type TriggerKind = 'fire' | 'retract' | 'test';

/** One trigger to record with its account event, exactly once per (ruleId, eventKey). */
export interface TriggerRecord {
  /** Pre-generated `trg_…`; also inside `data.trigger.id`. Discarded when the trigger is not recorded. */
  id: string;
  ruleId: string;
  accountId: string;
  kind: TriggerKind;
  /** The event's own key (`BTCUSDT@1767225600000`, `flow:<id>`, `removed:<key>`): unique per rule. */
  eventKey: string;
  /** `fire` only: the rule version the decision was made on; the trigger is dropped if the rule changed. */
  version?: number;
  /** `fire` only: a once-mode rule ends `triggered`. */
  once?: boolean;
  /** `fire` of a crossing rule: the side it now stands on. */
  satisfied?: boolean;
  eventAt: number;
  flowId?: string | null;
  value?: number | null;
  eventType: EventType;
  data: Record<string, unknown>;
  test?: boolean;
}

export interface RecordedTriggers {
  /** The triggers written now (the others existed already, or their rule changed or is gone). */
  recorded: TriggerRecord[];
  /** Their account events, in the same order, to publish once the transaction has committed. */
  events: AccountEvent[];
}

export interface StoredTrigger {
  id: string;
  kind: TriggerKind;
  ruleId: string;
  accountId: string;
  eventKey: string;
  eventId: string;
  flowId: string | null;
  value: number | null;
  eventAt: number;
  firedAt: number;
}

/** What the dashboard shows of an account's alerts: rules per state and the latest triggers with their rule. */
export interface AlertsOverview {
  byState: Record<RuleState, number>;
  recentTriggers: Array<{
    triggerId: string;
    ruleId: string;
    ruleName: string | null;
    type: RuleType;
    kind: TriggerKind;
    firedAt: number;
    eventId: string;
  }>;
}

export interface ListRulesQuery {
  state?: RuleState;
  type?: RuleType;
  /** Keyset: rules strictly older than this (created_at desc, id desc). */
  before?: { createdAt: number; id: string };
  limit: number;
}

/** What a user edit may change (state only between active, paused, failing). */
export type RulePatch = Partial<
  Pick<
    AlertRule,
    | 'name'
    | 'symbol'
    | 'condition'
    | 'trigger'
    | 'expiresAt'
    | 'channels'
    | 'template'
    | 'normalized'
    | 'state'
  >
> & {
  /** The evaluator's crossing side is reset when the condition changes. */
  resetSide?: boolean;
};

export type CreateResult = { ok: true } | { ok: false; reason: 'cap_reached'; live: number };
export type UpdateResult =
  | { ok: true; rule: AlertRule }
  | { ok: false; reason: 'not_found' | 'cap_reached' | 'terminal'; live?: number };

export interface AlertsRepository {
  /** Inserts the rule unless the account already has `cap` live rules (checked under a per-account lock). */
  create(rule: AlertRule, cap: number): Promise<CreateResult>;
  get(accountId: string, id: string): Promise<AlertRule | undefined>;
  list(accountId: string, query: ListRulesQuery): Promise<AlertRule[]>;
  /** Applies a user edit and bumps the version; moving into a live state is refused beyond `cap`. */
  update(accountId: string, id: string, patch: RulePatch, cap: number, atMs: number): Promise<UpdateResult>;
  /** Soft delete: the rule disappears from the API; its triggers and events remain. */
  delete(accountId: string, id: string, atMs: number): Promise<boolean>;
  /** active → failing (webhook delivery exhausted). False when the rule is not active. */
  markFailing(accountId: string, id: string, atMs: number): Promise<boolean>;
  /**
   * The rule's hourly message cap holds until `until` (it reads as `capped` until then). When no cap held at
   * `atMs` an episode begins: its account event (data from `compose`) is appended in the same transaction and
   * returned; within an episode the cap is only extended.
   */
  markCapped(
    accountId: string,
    id: string,
    until: number,
    atMs: number,
    compose: (rule: AlertRule) => Record<string, unknown>,
  ): Promise<AccountEvent | undefined>;

  /** Every live rule (evaluator start). */
  loadLive(): Promise<AlertRule[]>;
  /** Rules edited since `sinceMs`, deleted ones included (evaluator sync). */
  changedSince(sinceMs: number): Promise<Array<{ rule: AlertRule; deleted: boolean }>>;
  /** One rule by id, whatever its account (evaluator reload on a change notice). */
  byId(id: string): Promise<{ rule: AlertRule; deleted: boolean } | undefined>;
  /*
   * The evaluator's writes (recordTriggers, saveSides, expire) take its leadership term: with one, the write's
   * transaction is fenced by it (StaleLeaderError, nothing written, once the term is no longer current).
   */
  /**
   * The exactly-once write: in one transaction, locks the rules, skips triggers whose (rule, key) exists or
   * whose rule changed, inserts the account events and the trigger rows, and updates the rules' counters and
   * states.
   */
  recordTriggers(triggers: TriggerRecord[], atMs: number, term?: LeaderTerm): Promise<RecordedTriggers>;
  /** Persists crossing sides; an update for an older version than stored is ignored. */
  saveSides(
    sides: Array<{ id: string; version: number; satisfied: boolean }>,
    term?: LeaderTerm,
  ): Promise<void>;
  /** Live rules of these versions → expired. Returns the ids changed. */
  expire(rules: Array<{ id: string; version: number }>, atMs: number, term?: LeaderTerm): Promise<string[]>;
  /** Firings based on these flows (for reorg retractions). */
  firesForFlows(flowIds: string[]): Promise<StoredTrigger[]>;
  /** Rules per state (deleted ones left out) and the newest `recentLimit` triggers of the account. */
  overview(accountId: string, recentLimit: number): Promise<AlertsOverview>;
}

export const emptyRuleCounts = (): Record<RuleState, number> => ({
  active: 0,
  paused: 0,
  triggered: 0,
  expired: 0,
  failing: 0,
  capped: 0,
});

type Events = (events: NewAccountEvent[], atMs: number) => AccountEvent[];

/** In-memory twin for unit tests of the service and the evaluator. `appendEvents` plays the event log. */
export function createMemoryAlertsRepository(appendEvents: Events): AlertsRepository & {
  rules: Map<string, AlertRule & { deletedAt: number | null }>;
  triggers: Map<string, StoredTrigger>;
} {
  const rules = new Map<string, AlertRule & { deletedAt: number | null }>();
  const triggers = new Map<string, StoredTrigger>();
  const copy = (r: AlertRule & { deletedAt: number | null }): AlertRule => {
    const { deletedAt: _, ...rule } = structuredClone(r);
    return rule;
  };
  const liveCount = (accountId: string) =>
    [...rules.values()].filter(
      (r) => r.accountId === accountId && r.deletedAt === null && LIVE_STATES.includes(r.state),
    ).length;
  const own = (accountId: string, id: string) => {
    const r = rules.get(id);
    return r && r.accountId === accountId && r.deletedAt === null ? r : undefined;
  };
  return {
    rules,
    triggers,
    async overview(accountId, recentLimit) {
      const byState = emptyRuleCounts();
      const now = Date.now();
      for (const r of rules.values())
        if (r.accountId === accountId && r.deletedAt === null)
          byState[r.state === 'active' && (r.cappedUntil ?? 0) > now ? 'capped' : r.state]++;
      const recentTriggers = [...triggers.values()]
        .filter((t) => t.accountId === accountId)
        .sort((a, b) => b.firedAt - a.firedAt || (b.id < a.id ? -1 : 1))
        .slice(0, recentLimit)
        .map((t) => {
          const rule = rules.get(t.ruleId);
          return {
            triggerId: t.id,
            ruleId: t.ruleId,
            ruleName: rule?.name ?? null,
            type: rule?.type ?? 'price',
            kind: t.kind,
            firedAt: t.firedAt,
            eventId: t.eventId,
          };
        });
      return { byState, recentTriggers };
    },
    async create(rule, cap) {
      const live = liveCount(rule.accountId);
      if (LIVE_STATES.includes(rule.state) && live >= cap) return { ok: false, reason: 'cap_reached', live };
      rules.set(rule.id, { ...structuredClone(rule), deletedAt: null });
      return { ok: true };
    },
    async get(accountId, id) {
      const r = own(accountId, id);
      return r ? copy(r) : undefined;
    },
    async list(accountId, q) {
      return [...rules.values()]
        .filter((r) => r.accountId === accountId && r.deletedAt === null)
        .filter((r) => (q.state ? r.state === q.state : true) && (q.type ? r.type === q.type : true))
        .sort((a, b) => b.createdAt - a.createdAt || (b.id < a.id ? -1 : 1))
        .filter(
          (r) =>
            !q.before ||
            r.createdAt < q.before.createdAt ||
            (r.createdAt === q.before.createdAt && r.id < q.before.id),
        )
        .slice(0, q.limit)
        .map(copy);
    },
    async update(accountId, id, patch, cap, atMs) {
      const r = own(accountId, id);
      if (!r) return { ok: false, reason: 'not_found' };
      if (r.state === 'triggered' || r.state === 'expired') return { ok: false, reason: 'terminal' };
      const { resetSide, ...fields } = patch;
      if (fields.state && LIVE_STATES.includes(fields.state) && !LIVE_STATES.includes(r.state)) {
        const live = liveCount(accountId);
        if (live >= cap) return { ok: false, reason: 'cap_reached', live };
      }
      Object.assign(r, structuredClone(fields), { version: r.version + 1, updatedAt: atMs });
      if (resetSide) r.lastSatisfied = null;
      return { ok: true, rule: copy(r) };
    },
    async delete(accountId, id, atMs) {
      const r = own(accountId, id);
      if (!r) return false;
      r.deletedAt = atMs;
      r.updatedAt = atMs;
      r.version++;
      return true;
    },
    async markFailing(accountId, id, _atMs) {
      const r = own(accountId, id);
      if (r?.state !== 'active') return false;
      r.state = 'failing';
      return true;
    },
    async markCapped(accountId, id, until, atMs, compose) {
      const r = own(accountId, id);
      if (!r) return undefined;
      const begins = !r.cappedUntil || r.cappedUntil <= atMs;
      r.cappedUntil = begins ? until : Math.max(until, r.cappedUntil!);
      if (!begins) return undefined;
      return appendEvents([{ accountId, type: 'alert.capped', data: compose(copy(r)) }], atMs)[0];
    },
    async loadLive() {
      return [...rules.values()]
        .filter((r) => r.deletedAt === null && LIVE_STATES.includes(r.state))
        .map(copy);
    },
    async changedSince(sinceMs) {
      return [...rules.values()]
        .filter((r) => r.updatedAt > sinceMs)
        .map((r) => ({ rule: copy(r), deleted: r.deletedAt !== null }));
    },
    async byId(id) {
      const r = rules.get(id);
      return r ? { rule: copy(r), deleted: r.deletedAt !== null } : undefined;
    },
    async recordTriggers(list, atMs, term) {
      refuseLostTerm(term);
      const recorded: TriggerRecord[] = [];
      for (const t of list) {
        const r = rules.get(t.ruleId);
        if (!r || (r.deletedAt !== null && t.kind !== 'retract')) continue;
        if (t.kind === 'fire' && (!LIVE_STATES.includes(r.state) || r.version !== t.version)) continue;
        const key = `${t.ruleId} ${t.eventKey}`;
        if (triggers.has(key)) continue;
        recorded.push(t);
        triggers.set(key, {
          id: t.id,
          kind: t.kind,
          ruleId: t.ruleId,
          accountId: t.accountId,
          eventKey: t.eventKey,
          eventId: '',
          flowId: t.flowId ?? null,
          value: t.value ?? null,
          eventAt: t.eventAt,
          firedAt: atMs,
        });
        if (t.kind === 'fire') {
          r.lastEventAt = t.eventAt;
          r.lastTriggeredAt = atMs;
          r.triggerCount++;
          if (t.satisfied !== undefined) r.lastSatisfied = t.satisfied;
          if (t.once) r.state = 'triggered';
        }
      }
      const events = appendEvents(
        recorded.map((t) => ({ accountId: t.accountId, type: t.eventType, data: t.data, test: t.test })),
        atMs,
      );
      recorded.forEach((t, i) => {
        triggers.get(`${t.ruleId} ${t.eventKey}`)!.eventId = events[i]!.id;
      });
      return { recorded, events };
    },
    async saveSides(sides, term) {
      refuseLostTerm(term);
      for (const s of sides) {
        const r = rules.get(s.id);
        if (r && r.version === s.version) r.lastSatisfied = s.satisfied;
      }
    },
    async expire(list, atMs, term) {
      refuseLostTerm(term);
      const changed: string[] = [];
      for (const { id, version } of list) {
        const r = rules.get(id);
        if (r && r.deletedAt === null && r.version === version && LIVE_STATES.includes(r.state)) {
          r.state = 'expired';
          r.updatedAt = atMs;
          changed.push(id);
        }
      }
      return changed;
    },
    async firesForFlows(flowIds) {
      const wanted = new Set(flowIds);
      return [...triggers.values()].filter(
        (t) => t.kind === 'fire' && t.flowId !== null && wanted.has(t.flowId),
      );
    },
  };
}
