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
  /** Marks a code used; false when it was used already (a replay, or a concurrent exchange). */
  useCode(hash: string, at: number): Promise<boolean>;
  /** Stores a grant, its first refresh token, and the grant on the code it came from, in one transaction. */
  insertGrant(grant: OAuthGrant, refresh: OAuthRefreshToken, codeHash: string): Promise<void>;
  findGrant(id: string): Promise<OAuthGrant | undefined>;
  /** Live grants of an account with their client's name, newest first. */
  listGrants(userId: string): Promise<Array<OAuthGrant & { client_name: string }>>;
  /** Live grants of a client. */
  listClientGrants(clientId: string): Promise<OAuthGrant[]>;
  /** Marks a grant revoked; false when it was already. */
  revokeGrant(id: string, at: number, reason: string): Promise<boolean>;
  findRefreshToken(hash: string): Promise<OAuthRefreshToken | undefined>;
  /** Marks a refresh token used; false when it was used already. */
  useRefreshToken(hash: string, at: number): Promise<boolean>;
  insertRefreshToken(token: OAuthRefreshToken): Promise<void>;
}
