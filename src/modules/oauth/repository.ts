import type { LeaderTerm } from '../../shared/leadership.ts';
import type { OAuthClient, OAuthCode, OAuthGrant, OAuthRefreshToken } from './tables.ts';

/** The OAuth store port, implemented on PGlite and PostgreSQL by `repository.kysely.ts`. */
export interface OAuthRepository {
  insertClient(client: OAuthClient): Promise<void>;
  findClient(id: string): Promise<OAuthClient | undefined>;
  /** Clients an account registered, newest first. */
  listClients(ownerId: string): Promise<OAuthClient[]>;
  /** Every client, newest first (operator listing). */
  listAllClients(): Promise<OAuthClient[]>;
  deleteClient(id: string): Promise<void>;
  insertCode(code: OAuthCode): Promise<void>;
  findCode(hash: string): Promise<OAuthCode | undefined>;
  /**
   * In one transaction: marks the code used, stores the grant and its first refresh token, and notes the
   * grant on the code. False (nothing stored) when the code was used already: a replay, or a concurrent
   * exchange that won.
   */
  redeemCode(codeHash: string, at: number, grant: OAuthGrant, refresh: OAuthRefreshToken): Promise<boolean>;
  findGrant(id: string): Promise<OAuthGrant | undefined>;
  /** Live grants of an account with their client's name, newest first. */
  listGrants(userId: string): Promise<Array<OAuthGrant & { client_name: string }>>;
  /** The client of each grant `ids` (revoked grants too; a deleted client's grants are gone). */
  clientsOfGrants(
    ids: readonly string[],
  ): Promise<Array<{ grant_id: string; client_id: string; client_name: string }>>;
  /** Live grants of a client. */
  listClientGrants(clientId: string): Promise<OAuthGrant[]>;
  /** Marks a grant revoked; false when it was already. */
  revokeGrant(id: string, at: number, reason: string): Promise<boolean>;
  findRefreshToken(hash: string): Promise<OAuthRefreshToken | undefined>;
  /**
   * Deletes codes and refresh tokens that expired before `before`, then grants revoked before it or left
   * with no refresh token and created before it (their access tokens go with them); returns how many of each.
   * Fenced by the sweeping leader's `term`.
   */
  deleteExpired(
    before: number,
    term?: LeaderTerm,
  ): Promise<{ codes: number; refreshTokens: number; grants: number }>;
  /**
   * In one transaction: marks a refresh token used and stores its successor. False (nothing stored) when it
   * was used already, so a failed write never leaves a client with neither token.
   */
  rotateRefreshToken(hash: string, at: number, next: OAuthRefreshToken): Promise<boolean>;
}
