import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { EventType } from '../events/index.ts';
import type {
  Attempt,
  AttemptOutcome,
  ChannelKind,
  Delivery,
  DeliveryStatus,
  DeliveryWithAttempts,
} from './types.ts';
import { type DeliveriesRepository, decodeDeliveryCursor, encodeDeliveryCursor } from './repository.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTables } from './tables.ts';

/** The delivery outbox on Kysely (PostgreSQL or PGlite): deliveries, their attempts, the sender's cursor. */

function deliveryFromRow(row: Selectable<WebhookDeliveriesTable>): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    channel: row.channel as ChannelKind,
    accountId: row.account_id,
    eventSeq: Number(row.event_seq),
    eventId: row.event_id,
    eventType: row.event_type as EventType,
    ruleId: row.rule_id,
    orderKey: row.order_key,
    body: row.body,
    test: row.test,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

function attemptFromRow(row: Selectable<WebhookAttemptsTable>): Attempt {
  return {
    deliveryId: row.delivery_id,
    attempt: row.attempt,
    startedAt: Number(row.started_at),
    latencyMs: row.latency_ms,
    statusCode: row.status_code,
    outcome: row.outcome as AttemptOutcome,
    error: row.error,
  };
}

/** A pending delivery `d` with no older pending one to the same endpoint and order key: next in its line. */
const headOfLine = ({ not, exists, selectFrom }: ExpressionBuilder<DeliveriesFrom, 'd'>) =>
  not(
    exists(
      selectFrom('webhook_deliveries as o')
        .select(sql`1`.as('one'))
        .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
        .whereRef('o.order_key', '=', 'd.order_key')
        .where('o.status', '=', 'pending')
        .whereRef('o.event_seq', '<', 'd.event_seq'),
    ),
  );

type DeliveriesFrom = WebhooksTables & { d: WebhooksTables['webhook_deliveries'] };

export function createKyselyDeliveriesRepository(db: Kysely<WebhooksTables>): DeliveriesRepository {
  return {
    async readCursor(name) {
      const row = await db
        .selectFrom('webhook_sender_state')
        .select('cursor')
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? Number(row.cursor) : 0;
    },
    async enqueue(deliveries, cursor, at, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        let inserted = 0;
        if (deliveries.length) {
          const result = await trx
            .insertInto('webhook_deliveries')
            .values(
              deliveries.map((d) => ({
                id: d.id,
                endpoint_id: d.endpointId,
                channel: d.channel,
                account_id: d.accountId,
                event_seq: d.eventSeq,
                event_id: d.eventId,
                event_type: d.eventType,
                rule_id: d.ruleId,
                order_key: d.orderKey,
                body: d.body,
                test: d.test,
                status: d.capped ? 'capped' : 'pending',
                last_error: d.capped ?? null,
                finished_at: d.capped ? d.createdAt : null,
                next_attempt_at: d.nextAttemptAt,
                created_at: d.createdAt,
              })),
            )
            .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
            .executeTakeFirst();
          inserted = Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        if (cursor) {
          await trx
            .insertInto('webhook_sender_state')
            .values({ name: cursor.name, cursor: cursor.seq, updated_at: at })
            .onConflict((oc) =>
              oc.column('name').doUpdateSet({
                cursor: sql`greatest(webhook_sender_state.cursor, excluded.cursor)`,
                updated_at: at,
              }),
            )
            .execute();
        }
        return inserted;
      });
    },
    async due(now, limit, fairness = {}) {
      const skip = fairness.skip ?? [];
      // Rank each endpoint's due heads oldest first, then take them round-robin by rank (window functions:
      // the same on PGlite and PostgreSQL).
      const ranked = db
        .selectFrom('webhook_deliveries as d')
        .selectAll('d')
        .select(
          sql<number>`row_number() over (partition by d.endpoint_id order by d.event_seq, d.id)`.as('rank'),
        )
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
        .$if(skip.length > 0, (q) => q.where('d.endpoint_id', 'not in', [...skip]))
        .where(headOfLine);
      const rows = await db
        .selectFrom(ranked.as('r'))
        .selectAll('r')
        .$if(fairness.perEndpoint !== undefined, (q) => q.where('r.rank', '<=', fairness.perEndpoint!))
        .orderBy('r.rank')
        .orderBy('r.event_seq')
        .orderBy('r.id')
        .limit(limit)
        .execute();
      return rows.map(deliveryFromRow);
    },
    async outboxDepth() {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return {
        pending: Number(row?.n ?? 0),
        oldestQueuedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
      };
    },
    async nextDueAt() {
      const row = await db
        .selectFrom('webhook_deliveries as d')
        .select(sql<number | null>`min(greatest(d.next_attempt_at, coalesce(d.lease_until + 1, 0)))`.as('at'))
        .where('d.status', '=', 'pending')
        .where(headOfLine)
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },
    async claim(id, now, leaseUntil, term) {
      const take = (executor: Kysely<WebhooksTables>) =>
        executor
          .updateTable('webhook_deliveries')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), lease_until: leaseUntil }))
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .returningAll()
          .executeTakeFirst();
      const row =
        term && term.term !== 0
          ? await db.transaction().execute(async (trx) => {
              await assertLeaderTerm(trx, term);
              return take(trx);
            })
          : await take(db);
      return row ? deliveryFromRow(row) : undefined;
    },
    async settle(attempt, next, term) {
      await db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set({
            status: next.status,
            next_attempt_at: next.nextAttemptAt,
            last_error: next.lastError,
            finished_at: next.finishedAt,
            lease_until: null,
          })
          .where('id', '=', attempt.deliveryId)
          .executeTakeFirst();
        // Deleted with its endpoint while the attempt was in flight: nothing left to record it on.
        if (Number(updated.numUpdatedRows) === 0) return;
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: attempt.deliveryId,
            attempt: attempt.attempt,
            started_at: attempt.startedAt,
            latency_ms: Math.round(attempt.latencyMs),
            status_code: attempt.statusCode,
            outcome: attempt.outcome,
            error: attempt.error,
          })
          .execute();
      });
    },
    async disableEndpoint(endpointId, reason, at, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        await trx
          .updateTable('webhook_endpoints')
          .set({ status: 'disabled', disabled_reason: reason, updated_at: at })
          .where('id', '=', endpointId)
          .execute();
        const rows = await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', last_error: reason, finished_at: at, lease_until: null })
          .where('endpoint_id', '=', endpointId)
          .where('status', '=', 'pending')
          .returningAll()
          .execute();
        return rows.map(deliveryFromRow);
      });
    },
    async recentMessages(accountIds, since) {
      const perAccount = new Map<string, number>();
      const perRule = new Map<string, number>();
      if (!accountIds.length) return { perAccount, perRule };
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => ['account_id', 'rule_id', eb.fn.countAll<string>().as('n')])
        .where('account_id', 'in', [...accountIds])
        .where('created_at', '>=', since)
        .where('channel', '<>', 'webhook')
        .where('status', '<>', 'capped')
        .where('test', '=', false)
        .groupBy(['account_id', 'rule_id'])
        .execute();
      for (const row of rows) {
        const n = Number(row.n);
        perAccount.set(row.account_id, (perAccount.get(row.account_id) ?? 0) + n);
        if (row.rule_id) perRule.set(row.rule_id, (perRule.get(row.rule_id) ?? 0) + n);
      }
      return { perAccount, perRule };
    },
    async channelTestsSince(endpointId, since) {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select('created_at')
        .where('endpoint_id', '=', endpointId)
        .where('test', '=', true)
        .where('rule_id', 'is', null)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => Number(r.created_at));
    },
    async list(filter, options) {
      let query = db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('account_id', '=', filter.accountId)
        .orderBy('event_seq', 'desc')
        .orderBy('id', 'desc')
        .limit(options.limit + 1);
      query =
        'ruleId' in filter
          ? query.where('rule_id', '=', filter.ruleId)
          : query.where('endpoint_id', '=', filter.endpointId);
      const after = options.cursor ? decodeDeliveryCursor(options.cursor) : undefined;
      if (after)
        query = query.where((eb) =>
          eb.or([
            eb('event_seq', '<', after.seq),
            eb.and([eb('event_seq', '=', after.seq), eb('id', '<', after.id)]),
          ]),
        );
      const rows = (await query.execute()).map(deliveryFromRow);
      const page = rows.slice(0, options.limit);
      const attempts = page.length
        ? await db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where(
              'delivery_id',
              'in',
              page.map((d) => d.id),
            )
            .orderBy('delivery_id')
            .orderBy('attempt')
            .orderBy('id')
            .execute()
        : [];
      const byDelivery = new Map<string, Attempt[]>();
      for (const row of attempts) {
        const list = byDelivery.get(row.delivery_id) ?? [];
        list.push(attemptFromRow(row));
        byDelivery.set(row.delivery_id, list);
      }
      const data: DeliveryWithAttempts[] = page.map((d) => ({
        ...d,
        attemptLog: byDelivery.get(d.id) ?? [],
      }));
      return {
        data,
        nextCursor: rows.length > options.limit ? encodeDeliveryCursor(page[page.length - 1]!) : null,
      };
    },
  };
}
