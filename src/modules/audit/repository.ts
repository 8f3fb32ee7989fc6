import type { AuditQuery, StoredAuditEntry } from './types.ts';

/**
 * The audit store port: append and read, and no way to change or remove an entry (the retention sweep
 * deletes old entries on its own, app/retention.ts). `repository.kysely.ts` implements it on PGlite and
 * PostgreSQL; `createMemoryAuditRepository` is its twin.
 */
export interface AuditRepository {
  append(entry: Omit<StoredAuditEntry, 'seq'>): Promise<void>;
  /** Newest first (seq descending), filtered. */
  list(query: AuditQuery): Promise<StoredAuditEntry[]>;
}

export function createMemoryAuditRepository(): AuditRepository {
  const rows: StoredAuditEntry[] = [];
  return {
    async append(entry) {
      rows.push(structuredClone({ ...entry, seq: rows.length + 1 }));
    },
    async list(q) {
      const found: StoredAuditEntry[] = [];
      for (let i = rows.length - 1; i >= 0 && found.length < q.limit; i--) {
        const r = rows[i]!;
        if (q.beforeSeq !== undefined && r.seq >= q.beforeSeq) continue;
        if (q.action !== undefined && r.action !== q.action) continue;
        if (q.actorId !== undefined && r.actorId !== q.actorId) continue;
        if (q.from !== undefined && r.at < q.from) continue;
        if (q.to !== undefined && r.at >= q.to) continue;
        found.push(structuredClone(r));
      }
      return found;
    },
  };
}
