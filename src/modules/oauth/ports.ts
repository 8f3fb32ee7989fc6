import type { Permission } from '../accounts/index.ts';

/** What the OAuth server needs from accounts: access tokens are API tokens tied to their grant. */
export interface OAuthAccountsPort {
  issueGrantToken(input: {
    userId: string;
    grantId: string;
    name: string;
    permissions: readonly Permission[];
    expiresAt: number;
  }): Promise<{ token: string; expiresAt: number }>;
  /** Revokes every access token of a grant (dropped from every replica's cache, their sockets closed). */
  revokeGrantTokens(grantId: string): Promise<number>;
  /** The grant an access token was issued under, if it is one. */
  grantOfToken(secret: string): Promise<string | undefined>;
}

export interface OAuthOptions {
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  /** How long an authorization code may wait for its exchange (RFC 6749 §4.1.2: at most 10 minutes). */
  codeTtlMs: number;
}
