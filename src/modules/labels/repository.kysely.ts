import { type Kysely, sql } from 'kysely';
import type { LabelsRepository } from './repository.ts';
import type { LabelsTables, PrivateLabelsTable } from './tables.ts';
import type { LabelKind, PrivateLabel } from './types.ts';

const fromRow = (row: PrivateLabelsTable): PrivateLabel => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind as LabelKind,
  chain: row.chain,
  address: row.address,
  name: row.name,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** Private labels on PGlite or PostgreSQL. */
export function createKyselyLabelsRepository(db: Kysely<LabelsTables>): LabelsRepository {
  return {
    async upsert(write, cap) {
      return db.transaction().execute(async (trx) => {
        // Serializes one account's count-and-insert, so two concurrent saves cannot both pass the cap.
        await sql`select pg_advisory_xact_lock(hashtext(${`labels:${write.accountId}`}))`.execute(trx);
        const existing = await trx
          .updateTable('private_labels')
          .set({ kind: write.kind, name: write.name, updated_at: write.now })
          .where('account_id', '=', write.accountId)
          .where('chain', '=', write.chain)
          .where('address', '=', write.address)
          .returningAll()
          .executeTakeFirst();
        if (existing) return { kind: 'replaced' as const, label: fromRow(existing) };
        const { n } = await trx
          .selectFrom('private_labels')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', write.accountId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return { kind: 'limit' as const };
        const row = await trx
          .insertInto('private_labels')
          .values({
            id: write.id,
            account_id: write.accountId,
            kind: write.kind,
            chain: write.chain,
            address: write.address,
            name: write.name,
            created_at: write.now,
            updated_at: write.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { kind: 'created' as const, label: fromRow(row) };
      });
    },

    async list(accountId, query) {
      let q = db.selectFrom('private_labels').selectAll().where('account_id', '=', accountId);
      if (query.chain !== undefined) q = q.where('chain', '=', query.chain);
      if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
      const after = query.after;
      if (after)
        q = q.where((eb) =>
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
          ]),
        );
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
      return rows.map(fromRow);
    },

    async get(accountId, id) {
      const row = await db
        .selectFrom('private_labels')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async remove(accountId, id) {
      const result = await db
        .deleteFrom('private_labels')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async forAddresses(accountId, chain, addresses) {
      if (addresses.length === 0) return [];
      const rows = await db
        .selectFrom('private_labels')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('chain', '=', chain)
        .where('address', 'in', [...addresses])
        .execute();
      return rows.map(fromRow);
    },
  };
}
