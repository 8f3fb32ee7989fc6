import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  ImportCounts,
  ImportRecord,
  ImportWrite,
  KeyClaim,
  PortfolioRepository,
  PortfolioRow,
} from './repository.ts';
import { sameContent } from './rows.ts';
import type { PortfolioRowsTable, PortfolioTables } from './tables.ts';

const toRow = (r: Selectable<PortfolioRowsTable>): PortfolioRow => ({
  id: r.id,
  asset: r.asset,
  quantity: r.quantity,
  costBasis: r.cost_basis,
  costCurrency: r.cost_currency,
  acquiredAt: r.acquired_at,
  venue: r.venue,
  note: r.note,
  externalId: r.external_id,
  importId: r.import_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createKyselyPortfolioRepository(db: Kysely<PortfolioTables>): PortfolioRepository {
  async function writeImport(trx: Transaction<PortfolioTables>, write: ImportWrite): Promise<ImportCounts> {
    const { accountId, now } = write;
    const externalIds = write.rows.map((r) => r.externalId).filter((id): id is string => id !== null);
    const existing = new Map<string, PortfolioRow>();
    if (externalIds.length) {
      const found = await trx
        .selectFrom('portfolio_rows')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('external_id', 'in', externalIds)
        .forUpdate()
        .execute();
      for (const r of found) existing.set(r.external_id!, toRow(r));
    }
    const counts: ImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
    const values: Array<PortfolioRowsTable> = [];
    write.rows.forEach((row, i) => {
      const stored = row.externalId === null ? undefined : existing.get(row.externalId);
      if (stored && sameContent(stored, row)) {
        counts.unchanged++;
        return;
      }
      if (stored) counts.updated++;
      else counts.inserted++;
      values.push({
        id: stored?.id ?? write.newIds[i]!,
        account_id: accountId,
        asset: row.asset,
        quantity: row.quantity,
        cost_basis: row.costBasis,
        cost_currency: row.costCurrency,
        acquired_at: row.acquiredAt,
        venue: row.venue,
        note: row.note,
        external_id: row.externalId,
        import_id: write.importId,
        position: i,
        created_at: stored?.createdAt ?? now,
        updated_at: now,
      });
    });
    if (values.length) {
      // An upsert, not a plain insert: a concurrent import with another key may have inserted the same
      // externalId since the lookup above; its row is then updated rather than the import failing.
      await trx
        .insertInto('portfolio_rows')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['account_id', 'external_id']).doUpdateSet((eb) => ({
            asset: eb.ref('excluded.asset'),
            quantity: eb.ref('excluded.quantity'),
            cost_basis: eb.ref('excluded.cost_basis'),
            cost_currency: eb.ref('excluded.cost_currency'),
            acquired_at: eb.ref('excluded.acquired_at'),
            venue: eb.ref('excluded.venue'),
            note: eb.ref('excluded.note'),
            import_id: eb.ref('excluded.import_id'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    await trx
      .insertInto('portfolio_imports')
      .values({
        id: write.importId,
        account_id: accountId,
        format: write.format,
        row_count: write.rows.length,
        ...counts,
        idempotency_key: write.idempotencyKey,
        created_at: now,
      })
      .execute();
    const answer = write.answer?.(counts);
    if (write.idempotencyKey !== null && answer) {
      await trx
        .updateTable('idempotency_keys')
        .set({ state: 'done', status: answer.status, body: answer.body })
        .where('account_id', '=', accountId)
        .where('key', '=', write.idempotencyKey)
        .execute();
    }
    return counts;
  }

  async function tryClaim(
    input: Parameters<PortfolioRepository['claimKey']>[0],
  ): Promise<KeyClaim | 'retry'> {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        account_id: input.accountId,
        key: input.key,
        fingerprint: input.fingerprint,
        state: 'running',
        status: null,
        body: null,
        created_at: input.now,
        expires_at: input.now + input.ttlMs,
      })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed' };
    const found = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', input.accountId)
      .where('key', '=', input.key)
      .executeTakeFirst();
    if (!found) return 'retry'; // released between our insert and select
    const abandoned = found.state === 'running' && found.created_at <= input.now - input.staleMs;
    if (found.expires_at <= input.now || abandoned) {
      // Compare-and-delete: only the record we looked at, so two takers cannot both win.
      await db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', input.accountId)
        .where('key', '=', input.key)
        .where('created_at', '=', found.created_at)
        .where('state', '=', found.state)
        .execute();
      return 'retry';
    }
    if (found.fingerprint !== input.fingerprint) return { kind: 'mismatch' };
    if (found.state === 'running') return { kind: 'running' };
    return { kind: 'replay', status: found.status!, body: found.body! };
  }

  return {
    async rows(accountId) {
      const rows = await db
        .selectFrom('portfolio_rows')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toRow);
    },
    applyImport: (write) => db.transaction().execute((trx) => writeImport(trx, write)),
    async imports(accountId, limit) {
      const rows = await db
        .selectFrom('portfolio_imports')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(
        (r): ImportRecord => ({
          id: r.id,
          format: r.format,
          rowCount: r.row_count,
          inserted: r.inserted,
          updated: r.updated,
          unchanged: r.unchanged,
          idempotencyKey: r.idempotency_key,
          createdAt: r.created_at,
        }),
      );
    },
    async deleteRow(accountId, id) {
      const result = await db
        .deleteFrom('portfolio_rows')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async deleteAll(accountId) {
      const result = await db
        .deleteFrom('portfolio_rows')
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async claimKey(input) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const claim = await tryClaim(input);
        if (claim !== 'retry') return claim;
      }
      return { kind: 'running' };
    },
    async completeKey(accountId, key, answer) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', status: answer.status, body: answer.body })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
    },
    async releaseKey(accountId, key, claimedAt) {
      let query = db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('state', '=', 'running');
      if (claimedAt !== undefined) query = query.where('created_at', '=', claimedAt);
      await query.execute();
    },
    async pruneKeys(now, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        const result = await trx
          .deleteFrom('idempotency_keys')
          .where('expires_at', '<=', now)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
