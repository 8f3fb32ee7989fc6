import type { AuditAction, AuditDetail, AuditOutcome, CredentialKind, StoredAuditEntry } from './types.ts';

/** An audit entry as `GET /api/audit-log` answers it (one line of the JSON-lines export too). */
export interface AuditEntryView {
  id: string;
  at: string;
  action: AuditAction;
  outcome: AuditOutcome;
  actorId: string | null;
  credential: CredentialKind;
  address: string | null;
  target: string | null;
  detail: AuditDetail | null;
}

export function presentAuditEntry(e: StoredAuditEntry): AuditEntryView {
  return {
    id: e.id,
    at: new Date(e.at).toISOString(),
    action: e.action,
    outcome: e.outcome,
    actorId: e.actorId,
    credential: e.credential,
    address: e.address,
    target: e.target,
    detail: e.detail,
  };
}
