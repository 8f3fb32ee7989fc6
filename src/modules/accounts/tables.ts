import type { Generated, JSONColumnType, Selectable } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  role: string;
  plan: string;
  rate_limit_override: number | null;
  created_at: number;
}

/** An API token as stored and read. */
export type ApiToken = Selectable<ApiTokensTable>;

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** The organization the token acts in (its issuer's personal one unless issued in another). */
  org_id: string;
  name: string;
  token_hash: string;
  start: string;
  /** jsonb: read as an array (null = the role's permissions), written as JSON text. */
  permissions: JSONColumnType<string[] | null, string | null, string | null>;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_to: string | null;
  /** The OAuth grant an access token was issued under (null: a token its owner made). */
  grant_id: string | null;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** An account's identity at an OpenID Connect provider: `sub` within its issuer, for good. */
export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  /** The provider's email at the last sign-in (for the operator; the account's own email is not changed). */
  email: string;
  created_at: number;
  last_sign_in_at: number;
}

export interface ApiUsageTable {
  user_id: string;
  hour: number;
  requests: Generated<number>;
  rejected: Generated<number>;
}

/** An account's TOTP secret, sealed; `confirmed_at` null while enrolment waits for its first code. */
export interface TwoFactorTable {
  user_id: string;
  secret_sealed: string;
  created_at: number;
  confirmed_at: number | null;
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused (no replay). */
  last_step: number | null;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: number | null;
}

/** Between the password step and the code step of a sign-in (or a required enrolment). */
export interface SignInChallengesTable {
  id_hash: string;
  user_id: string;
  purpose: 'code' | 'enrol';
  expires_at: number;
  tries: Generated<number>;
}

/** An organization: the owner of API tokens, alerts, channels, webhooks, labels, portfolio and usage. */
export interface OrganizationsTable {
  id: string;
  name: string;
  plan: string;
  rate_limit_override: number | null;
  require_2fa: boolean;
  /** A user's own organization: its id is the user's id, it has that one member and takes no invitations. */
  personal: boolean;
  created_at: number;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  /** owner, admin, member or viewer (`OrgRole`). */
  role: string;
  created_at: number;
}

/** An invitation: its secret is shown once (in the link) and stored only hashed. */
export interface InvitationsTable {
  id: string;
  org_id: string;
  role: string;
  token_hash: string;
  email: string | null;
  created_by: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
}

export interface AccountsTables {
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  user_identities: UserIdentitiesTable;
  api_usage: ApiUsageTable;
}
