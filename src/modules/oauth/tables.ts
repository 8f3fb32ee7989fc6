import type { JSONColumnType, Selectable } from 'kysely';

/** A registered OAuth client: confidential when it has a secret (stored hashed), public otherwise. */
export interface OAuthClientsTable {
  id: string;
  /** The account that registered it in the console; null for a client the operator registered. */
  owner_id: string | null;
  name: string;
  secret_hash: string | null;
  /** jsonb: the exact redirect URIs, read as an array, written as JSON text. */
  redirect_uris: JSONColumnType<string[], string, string>;
  created_at: number;
}

/** One consent exchanged for tokens: the family every access and refresh token of it belongs to. */
export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  scopes: JSONColumnType<string[], string, string>;
  created_at: number;
  revoked_at: number | null;
  /** Why: `user`, `client`, `refresh_token_reuse`, `code_reuse`. */
  revoked_reason: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: JSONColumnType<string[], string, string>;
  /** The PKCE S256 challenge the token request's verifier must match. */
  code_challenge: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The grant the code was exchanged for (revoked if the code is presented again). */
  grant_id: string | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  created_at: number;
  expires_at: number;
  /** Set when exchanged: a second use is a replay, and revokes the grant. */
  used_at: number | null;
}

export type OAuthClient = Selectable<OAuthClientsTable>;
export type OAuthGrant = Selectable<OAuthGrantsTable>;
export type OAuthCode = Selectable<OAuthCodesTable>;
export type OAuthRefreshToken = Selectable<OAuthRefreshTokensTable>;

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
}
