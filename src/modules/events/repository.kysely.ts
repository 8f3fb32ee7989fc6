import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { Kysely, Selectable } from 'kysely';
import { type AccountEvent, composeEvent, type EventType, type NewAccountEvent } from './event.ts';
import type { EventsRepository } from './repository.ts';
import type { AccountEventsTable, EventsTables } from './tables.ts';

function fromRow(row: Selectable<AccountEventsTable>): AccountEvent {
  return {
    seq: Number(row.seq),
    id: row.id,
    accountId: row.account_id,
    type: row.type as EventType,
    body: row.body,
    test: row.test,
    createdAt: Number(row.created_at),
  };
}

/**
 * Appends events using `db`, which may be (and for producers must be) the transaction that also writes what
 * caused them, so an event exists exactly when its cause does. Returns them with their `seq`, in input order.
 */
export async function insertAccountEvents(
  db: Kysely<EventsTables>,
  events: NewAccountEvent[],
  atMs: number,
): Promise<AccountEvent[]> {
  if (events.length === 0) return [];
  const composed = events.map((e) => composeEvent(e, atMs));
  const rows = await db
    .insertInto('account_events')
    .values(
      composed.map((e) => ({
        id: e.id,
        account_id: e.accountId,
        type: e.type,
        body: e.body,
        test: e.test,
        created_at: e.createdAt,
      })),
    )
    .returningAll()
    .execute();
  const byId = new Map(rows.map((r) => [r.id, fromRow(r)]));
  return composed.map((e) => byId.get(e.id)!);
}

export function createKyselyEventsRepository(db: Kysely<EventsTables>): EventsRepository {
  return {
    async listForAccount(accountId, afterSeq, limit) {
      const rows = await db
        .selectFrom('account_events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map(fromRow);
    },
    async listAfter(afterSeq, limit) {
      const rows = await db
        .selectFrom('account_events')
        .selectAll()
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map(fromRow);
    },
    async findForAccount(accountId, id) {
      const row = await db
        .selectFrom('account_events')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
    async pruneBefore(beforeMs, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        const result = await trx
          .deleteFrom('account_events')
          .where('created_at', '<', beforeMs)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
