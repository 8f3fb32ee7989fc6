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

export interface AccountsTables {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  user_identities: UserIdentitiesTable;
  api_usage: ApiUsageTable;
}
