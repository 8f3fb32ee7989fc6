/** What was done. One name per security-relevant action; docs/audit-log.md lists them with their targets. */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_out',
  'auth.two_factor',
  'token.create',
  'token.rotate',
  'token.revoke',
  'user.create',
  'user.role_change',
  'user.plan_change',
  'two_factor.enrol',
  'two_factor.disable',
  'two_factor.recovery_code_use',
  'webhook.create',
  'webhook.rotate',
  'webhook.delete',
  'channel.create',
  'channel.verify',
  'channel.test',
  'channel.delete',
  'alert_rule.delete',
  'label.delete',
  'portfolio.import',
  'portfolio.row_delete',
  'portfolio.delete',
  'oauth.client_create',
  'oauth.client_delete',
  'oauth.grant',
  'oauth.grant_revoke',
  'organization.create',
  'organization.update',
  'organization.plan_change',
  'organization.invite',
  'organization.invitation_revoke',
  'organization.join',
  'organization.member_role_change',
  'organization.member_remove',
  'organization.leave',
  'organization.transfer',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * How the actor proved who they were: a console session, an API token, a password (sign-in), single sign-on,
 * the operator CLI.
 */
export const CREDENTIAL_KINDS = ['session', 'token', 'password', 'sso', 'operator', 'none'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export type AuditOutcome = 'success' | 'failure';

/** Small facts about an action (a role's old and new value, rows imported); never a secret. */
export type AuditDetail = Readonly<Record<string, string | number | boolean | null>>;

/** One entry as a caller records it; the log adds its id and time. */
export interface AuditEntry {
  action: AuditAction;
  outcome: AuditOutcome;
  /** The user who acted (null: unknown, e.g. a sign-in with an email nobody has, or the operator CLI). */
  actorId: string | null;
  credential: CredentialKind;
  /** The client's address as the server saw it (null: not over HTTP). */
  address: string | null;
  /** What the action was done to: `token:<id>`, `user:<id>`, `webhook:<id>`, an email typed at sign-in… */
  target?: string | null;
  detail?: AuditDetail | null;
}

/** The port every module and route records through: append one entry, nothing else. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
}

/** An entry as stored and read back. */
export interface StoredAuditEntry extends Required<AuditEntry> {
  seq: number;
  id: string;
  at: number;
}

/** Filters of a listing: all optional, combined with "and"; `from` inclusive, `to` exclusive (ms). */
export interface AuditQuery {
  action?: AuditAction;
  actorId?: string;
  from?: number;
  to?: number;
  /** Entries older than this seq (the previous page's last). */
  beforeSeq?: number;
  limit: number;
}
