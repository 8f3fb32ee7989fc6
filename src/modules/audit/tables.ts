import type { Generated, JSONColumnType } from 'kysely';

/** Append-only: a trigger refuses UPDATE, and DELETE outside the retention sweep (migration 0020). */
export interface AuditLogTable {
  seq: Generated<string | number>;
  id: string;
  at: number;
  actor_id: string | null;
  credential: string;
  address: string | null;
  action: string;
  target: string | null;
  outcome: string;
  detail: JSONColumnType<Record<string, unknown> | null, string | null, never>;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
