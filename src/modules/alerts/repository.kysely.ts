import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import { type EventsTables, insertAccountEvents } from '../events/index.ts';
import {
  type AlertsRepository,
  emptyRuleCounts,
  type RecordedTriggers,
  type RulePatch,
  type StoredTrigger,
  type TriggerKind,
  type TriggerRecord,
} from './repository.ts';
import { type AlertRule, LIVE_STATES, type RuleState, type RuleType, storedWatch } from './rule.ts';
import type { AlertRulesTable, AlertsTables } from './tables.ts';

type Db = Kysely<AlertsTables & EventsTables>;

function fromRow(row: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    ...storedWatch(row.type, row.symbol, row.condition),
    trigger: {
      mode: row.trigger_mode as AlertRule['trigger']['mode'],
      cooldownSec: Number(row.cooldown_sec),
    },
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    channels: JSON.parse(row.channels),
    template: row.template ?? null,
    cappedUntil:
      row.capped_until === null || row.capped_until === undefined ? null : Number(row.capped_until),
    normalized: JSON.parse(row.normalized),
    state: row.state as RuleState,
    version: Number(row.version),
    lastSatisfied: row.last_satisfied,
    lastEventAt: row.last_event_at === null ? null : Number(row.last_event_at),
    lastTriggeredAt: row.last_triggered_at === null ? null : Number(row.last_triggered_at),
    triggerCount: Number(row.trigger_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(rule: AlertRule): AlertRulesTable {
  return {
    id: rule.id,
    account_id: rule.accountId,
    name: rule.name,
    type: rule.type,
    symbol: rule.symbol,
    condition: JSON.stringify(rule.condition),
    trigger_mode: rule.trigger.mode,
    cooldown_sec: rule.trigger.cooldownSec,
    expires_at: rule.expiresAt,
    channels: JSON.stringify(rule.channels),
    template: rule.template ?? null,
    normalized: JSON.stringify(rule.normalized),
    state: rule.state,
    version: rule.version,
    last_satisfied: rule.lastSatisfied,
    last_event_at: rule.lastEventAt,
    last_triggered_at: rule.lastTriggeredAt,
    trigger_count: rule.triggerCount,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
    deleted_at: null,
  };
}

function patchColumns(patch: RulePatch): Partial<AlertRulesTable> {
  const out: Partial<AlertRulesTable> = {};
  if (patch.name !== undefined) out.name = patch.name;
  if (patch.symbol !== undefined) out.symbol = patch.symbol;
  if (patch.condition !== undefined) out.condition = JSON.stringify(patch.condition);
  if (patch.trigger !== undefined) {
    out.trigger_mode = patch.trigger.mode;
    out.cooldown_sec = patch.trigger.cooldownSec;
  }
  if (patch.expiresAt !== undefined) out.expires_at = patch.expiresAt;
  if (patch.channels !== undefined) out.channels = JSON.stringify(patch.channels);
  if (patch.template !== undefined) out.template = patch.template;
  if (patch.normalized !== undefined) out.normalized = JSON.stringify(patch.normalized);
  if (patch.state !== undefined) out.state = patch.state;
  if (patch.resetSide) out.last_satisfied = null;
  return out;
}

/** Serializes an account's rule-count check with its insert (two concurrent creates cannot both pass the cap). */
async function lockAccount(trx: Transaction<AlertsTables & EventsTables>, accountId: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${`alerts:${accountId}`}))`.execute(trx);
}

async function liveCount(trx: Transaction<AlertsTables & EventsTables>, accountId: string): Promise<number> {
  const row = await trx
    .selectFrom('alert_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where('state', 'in', LIVE_STATES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const RETRYABLE = new Set(['40P01', '40001']);
/** Deadlocks and serialization failures between concurrent evaluators are retried (the work is idempotent). */
async function retrying<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (i >= attempts || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
    }
  }
}

export function createKyselyAlertsRepository(db: Db): AlertsRepository {
  const live = () => db.selectFrom('alert_rules').selectAll().where('deleted_at', 'is', null);
  return {
    async create(rule, cap) {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, rule.accountId);
        if (LIVE_STATES.includes(rule.state)) {
          const n = await liveCount(trx, rule.accountId);
          if (n >= cap) return { ok: false as const, reason: 'cap_reached' as const, live: n };
        }
        await trx.insertInto('alert_rules').values(toRow(rule)).execute();
        return { ok: true as const };
      });
    },
    async get(accountId, id) {
      const row = await live().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async list(accountId, q) {
      let query = live().where('account_id', '=', accountId);
      if (q.state) query = query.where('state', '=', q.state);
      if (q.type) query = query.where('type', '=', q.type);
      if (q.before) {
        const { createdAt, id } = q.before;
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', createdAt),
            eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map(fromRow);
    },
    async update(accountId, id, patch, cap, atMs) {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, accountId);
        const row = await trx
          .selectFrom('alert_rules')
          .selectAll()
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .where('deleted_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return { ok: false as const, reason: 'not_found' as const };
        const state = row.state as RuleState;
        if (state === 'triggered' || state === 'expired')
          return { ok: false as const, reason: 'terminal' as const };
        if (patch.state && LIVE_STATES.includes(patch.state) && !LIVE_STATES.includes(state)) {
          const n = await liveCount(trx, accountId);
          if (n >= cap) return { ok: false as const, reason: 'cap_reached' as const, live: n };
        }
        const updated = await trx
          .updateTable('alert_rules')
          .set({ ...patchColumns(patch), version: Number(row.version) + 1, updated_at: atMs })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { ok: true as const, rule: fromRow(updated) };
      });
    },
    async delete(accountId, id, atMs) {
      const result = await db
        .updateTable('alert_rules')
        .set((eb) => ({ deleted_at: atMs, updated_at: atMs, version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markFailing(accountId, id, _atMs) {
      const result = await db
        .updateTable('alert_rules')
        .set({ state: 'failing' })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .where('state', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markCapped(accountId, id, until, atMs, compose) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('alert_rules')
          .selectAll()
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .where('deleted_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return undefined;
        const held =
          row.capped_until === null || row.capped_until === undefined ? 0 : Number(row.capped_until);
        const begins = held <= atMs;
        await trx
          .updateTable('alert_rules')
          .set({ capped_until: begins ? until : Math.max(until, held) })
          .where('id', '=', id)
          .execute();
        if (!begins) return undefined;
        const rule = { ...fromRow(row), cappedUntil: until };
        const [event] = await insertAccountEvents(
          trx as unknown as Kysely<EventsTables>,
          [{ accountId, type: 'alert.capped', data: compose(rule) }],
          atMs,
        );
        return event;
      });
    },
    async loadLive() {
      const rows = await live().where('state', 'in', LIVE_STATES).execute();
      return rows.map(fromRow);
    },
    async changedSince(sinceMs) {
      const rows = await db.selectFrom('alert_rules').selectAll().where('updated_at', '>', sinceMs).execute();
      return rows.map((row) => ({ rule: fromRow(row), deleted: row.deleted_at !== null }));
    },
    async byId(id) {
      const row = await db.selectFrom('alert_rules').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { rule: fromRow(row), deleted: row.deleted_at !== null } : undefined;
    },
    async recordTriggers(list, atMs, term) {
      if (list.length === 0) return { recorded: [], events: [] };
      return retrying(() =>
        db.transaction().execute(async (trx) => {
          await assertLeaderTerm(trx, term);
          return record(trx, list, atMs);
        }),
      );
    },
    async saveSides(sides, term) {
      if (sides.length === 0) return;
      const sorted = [...sides].sort((a, b) => (a.id < b.id ? -1 : 1));
      await retrying(() =>
        db.transaction().execute(async (trx) => {
          await assertLeaderTerm(trx, term);
          await sql`update alert_rules as r set last_satisfied = u.s
            from unnest(${sorted.map((s) => s.id)}::text[], ${sorted.map((s) => s.satisfied)}::boolean[],
                        ${sorted.map((s) => s.version)}::integer[]) as u(id, s, v)
            where r.id = u.id and r.version = u.v`.execute(trx);
        }),
      );
    },
    async expire(rules, atMs, term) {
      if (rules.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        return expireIn(trx, rules, atMs);
      });
    },
    async firesForFlows(flowIds) {
      if (flowIds.length === 0) return [];
      const rows = await db
        .selectFrom('alert_triggers')
        .selectAll()
        .where('flow_id', 'in', flowIds)
        .where('kind', '=', 'fire')
        .execute();
      return rows.map(
        (r): StoredTrigger => ({
          id: r.id,
          kind: r.kind as TriggerKind,
          ruleId: r.rule_id,
          accountId: r.account_id,
          eventKey: r.event_key,
          eventId: r.event_id,
          flowId: r.flow_id,
          value: r.value === null ? null : Number(r.value),
          eventAt: Number(r.event_at),
          firedAt: Number(r.fired_at),
        }),
      );
    },
    async overview(accountId, recentLimit) {
      // `capped` is not stored: an active rule whose hourly message cap holds now counts as capped.
      const state = sql<string>`case when state = 'active' and capped_until > ${Date.now()} then 'capped' else state end`;
      const counts = await db
        .selectFrom('alert_rules')
        .select([state.as('state'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .groupBy(sql`1`)
        .execute();
      const byState = emptyRuleCounts();
      for (const c of counts) if (c.state in byState) byState[c.state as RuleState] = Number(c.n);
      const recent = await db
        .selectFrom('alert_triggers as t')
        .innerJoin('alert_rules as r', 'r.id', 't.rule_id')
        .select(['t.id', 't.rule_id', 'r.name', 'r.type', 't.kind', 't.fired_at', 't.event_id'])
        .where('t.account_id', '=', accountId)
        .orderBy('t.fired_at', 'desc')
        .orderBy('t.id', 'desc')
        .limit(recentLimit)
        .execute();
      return {
        byState,
        recentTriggers: recent.map((t) => ({
          triggerId: t.id,
          ruleId: t.rule_id,
          ruleName: t.name,
          type: t.type as RuleType,
          kind: t.kind as TriggerKind,
          firedAt: Number(t.fired_at),
          eventId: t.event_id,
        })),
      };
    },
  };
}

async function expireIn(
  trx: Transaction<AlertsTables & EventsTables>,
  rules: Array<{ id: string; version: number }>,
  atMs: number,
): Promise<string[]> {
  const changed: string[] = [];
  for (const { id, version } of rules) {
    const row = await trx
      .updateTable('alert_rules')
      .set({ state: 'expired', updated_at: atMs })
      .where('id', '=', id)
      .where('version', '=', version)
      .where('deleted_at', 'is', null)
      .where('state', 'in', LIVE_STATES)
      .returning('id')
      .executeTakeFirst();
    if (row) changed.push(row.id);
  }
  return changed;
}

async function record(
  trx: Transaction<AlertsTables & EventsTables>,
  list: TriggerRecord[],
  atMs: number,
): Promise<RecordedTriggers> {
  // Rule rows are locked in id order: every writer of triggers does the same, so concurrent evaluators queue
  // behind each other per rule instead of deadlocking, and a trigger's existence check below cannot race.
  const ruleIds = [...new Set(list.map((t) => t.ruleId))].sort();
  const rules = await trx
    .selectFrom('alert_rules')
    .select(['id', 'version', 'state', 'deleted_at'])
    .where('id', 'in', ruleIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  const byId = new Map(rules.map((r) => [r.id, r]));
  const existing = await trx
    .selectFrom('alert_triggers')
    .select(['rule_id', 'event_key'])
    .where('rule_id', 'in', ruleIds)
    .where(
      'event_key',
      'in',
      list.map((t) => t.eventKey),
    )
    .execute();
  const taken = new Set(existing.map((e) => `${e.rule_id} ${e.event_key}`));
  const recorded: TriggerRecord[] = [];
  for (const t of list) {
    const rule = byId.get(t.ruleId);
    // A retraction still goes out for a deleted rule: its original event was delivered.
    if (!rule || (rule.deleted_at !== null && t.kind !== 'retract')) continue;
    if (
      t.kind === 'fire' &&
      (!LIVE_STATES.includes(rule.state as RuleState) || Number(rule.version) !== t.version)
    )
      continue;
    const key = `${t.ruleId} ${t.eventKey}`;
    if (taken.has(key)) continue;
    taken.add(key);
    recorded.push(t);
    // A once-mode rule fires at most once, even when one batch holds two of its events.
    if (t.kind === 'fire' && t.once) rule.state = 'triggered';
  }
  if (recorded.length === 0) return { recorded, events: [] };
  // Kysely's schema types are invariant; the transaction holds the events table too.
  const events = await insertAccountEvents(
    trx as unknown as Kysely<EventsTables>,
    recorded.map((t) => ({ accountId: t.accountId, type: t.eventType, data: t.data, test: t.test })),
    atMs,
  );
  await trx
    .insertInto('alert_triggers')
    .values(
      recorded.map((t, i) => ({
        id: t.id,
        rule_id: t.ruleId,
        account_id: t.accountId,
        event_key: t.eventKey,
        kind: t.kind,
        event_id: events[i]!.id,
        flow_id: t.flowId ?? null,
        value: t.value ?? null,
        event_at: t.eventAt,
        fired_at: atMs,
      })),
    )
    .execute();
  for (const t of recorded) {
    if (t.kind !== 'fire') continue;
    await trx
      .updateTable('alert_rules')
      .set((eb) => ({
        last_event_at: t.eventAt,
        last_triggered_at: atMs,
        trigger_count: eb('trigger_count', '+', 1),
        ...(t.satisfied !== undefined ? { last_satisfied: t.satisfied } : {}),
        ...(t.once ? { state: 'triggered' } : {}),
      }))
      .where('id', '=', t.ruleId)
      .execute();
  }
  return { recorded, events };
}
