import type { Kysely, Selectable } from 'kysely';
import type { AuditRepository } from './repository.ts';
import type { AuditLogTable, AuditTables } from './tables.ts';
import type { AuditAction, AuditDetail, AuditOutcome, CredentialKind, StoredAuditEntry } from './types.ts';

function fromRow(row: Selectable<AuditLogTable>): StoredAuditEntry {
  return {
    seq: Number(row.seq),
    id: row.id,
    at: Number(row.at),
    actorId: row.actor_id,
    credential: row.credential as CredentialKind,
    address: row.address,
    action: row.action as AuditAction,
    target: row.target,
    outcome: row.outcome as AuditOutcome,
    detail: (row.detail as AuditDetail | null) ?? null,
  };
}

export function createKyselyAuditRepository(db: Kysely<AuditTables>): AuditRepository {
  return {
    async append(e) {
      await db
        .insertInto('audit_log')
        .values({
          id: e.id,
          at: e.at,
          actor_id: e.actorId,
          credential: e.credential,
          address: e.address,
          action: e.action,
          target: e.target,
          outcome: e.outcome,
          detail: e.detail === null ? null : JSON.stringify(e.detail),
        })
        .execute();
    },
    async list(q) {
      let query = db.selectFrom('audit_log').selectAll().orderBy('seq', 'desc').limit(q.limit);
      if (q.beforeSeq !== undefined) query = query.where('seq', '<', q.beforeSeq);
      if (q.action !== undefined) query = query.where('action', '=', q.action);
      if (q.actorId !== undefined) query = query.where('actor_id', '=', q.actorId);
      if (q.from !== undefined) query = query.where('at', '>=', q.from);
      if (q.to !== undefined) query = query.where('at', '<', q.to);
      return (await query.execute()).map(fromRow);
    },
  };
}
