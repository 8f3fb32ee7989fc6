import { type Kysely, type Transaction, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import { type EventsTables, insertAccountEvents } from '../events/index.ts';
import type {
  AlertsRepository,
  RecordedTriggers,
  StoredTrigger,
  TriggerKind,
  TriggerRecord,
} from './repository.ts';
import { LIVE_STATES, type RuleState } from './rule.ts';
import type { AlertsTables } from './tables.ts';

type Db = Kysely<AlertsTables & EventsTables>;

/** The evaluator's part of the alerts store on Kysely: its fenced writes and the reads of reorg retractions. */
export type EvaluatorStore = Pick<
  AlertsRepository,
  'recordTriggers' | 'saveSides' | 'expire' | 'firesForFlows'
>;

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

export function createKyselyEvaluatorStore(db: Db): EvaluatorStore {
  return {
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
