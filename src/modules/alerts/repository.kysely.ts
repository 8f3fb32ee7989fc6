import { type Kysely, type Transaction, sql } from 'kysely';
import { type EventsTables, insertAccountEvents } from '../events/index.ts';
import { type AlertsRepository, emptyRuleCounts, type TriggerKind } from './repository.ts';
import { LIVE_STATES, type RuleState, type RuleType } from './rule.ts';
import { fromRow, patchColumns, toRow } from './rule-row.ts';
import type { AlertsTables } from './tables.ts';
import { createKyselyEvaluatorStore } from './triggers.kysely.ts';

type Db = Kysely<AlertsTables & EventsTables>;

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

/**
 * The alerts store on PGlite and PostgreSQL: rules and the dashboard's overview here, the evaluator's writes and
 * reads of past firings in triggers.kysely.ts.
 */
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
    ...createKyselyEvaluatorStore(db),
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
