import type { ApiToken, UsersTable } from './tables.ts';

/** The accounts store port. One implementation (Kysely, repository.kysely.ts) serves PGlite and PostgreSQL alike. */
export interface AccountsRepository {
  countUsers(): Promise<number>;
  insertUser(user: UsersTable): Promise<void>;
  findUserByEmail(email: string): Promise<UsersTable | undefined>;
  findUserById(id: string): Promise<UsersTable | undefined>;
  updateUser(
    id: string,
    patch: Partial<Pick<UsersTable, 'plan' | 'rate_limit_override' | 'role'>>,
  ): Promise<void>;
  insertToken(token: ApiToken): Promise<void>;
  findTokenByHash(hash: string): Promise<{ token: ApiToken; user: UsersTable } | undefined>;
  findToken(id: string): Promise<ApiToken | undefined>;
  listTokens(userId: string): Promise<ApiToken[]>;
  countActiveTokens(userId: string, now: number): Promise<number>;
  revokeToken(id: string, at: number, rotatedTo?: string): Promise<boolean>;
  touchToken(id: string, at: number): Promise<void>;
  insertSession(session: {
    id_hash: string;
    user_id: string;
    created_at: number;
    expires_at: number;
  }): Promise<void>;
  findSession(idHash: string): Promise<{ user: UsersTable; expires_at: number } | undefined>;
  deleteSession(idHash: string): Promise<void>;
}
