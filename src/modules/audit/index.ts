/**
 * The audit log: who did what security-relevant thing, when, from where, and how it ended. Other modules and
 * routes record through the `AuditLog` port (`record(entry)`); entries are never changed, and only the
 * retention sweep removes old ones (docs/audit-log.md).
 */
export {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditDetail,
  type AuditEntry,
  type AuditLog,
  type AuditOutcome,
  CREDENTIAL_KINDS,
  type CredentialKind,
} from './types.ts';
export type { AuditEntryView } from './present.ts';
export { type AuditFilter, type AuditService, createAuditService } from './service.ts';
export { type AuditRepository, createMemoryAuditRepository } from './repository.ts';
export { createKyselyAuditRepository } from './repository.kysely.ts';
export type { AuditTables } from './tables.ts';
