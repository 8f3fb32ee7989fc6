import type { ApiToken, SessionsTable, UserIdentitiesTable, UsersTable } from './tables.ts';

/**
 * The accounts store port. `repository.kysely.ts` implements it on PGlite and PostgreSQL;
 * `createMemoryAccountsRepository` is its twin, run through the same suite (test/accounts/repository.test.ts).
 */
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
  /** The user's own tokens (not OAuth access tokens), newest first (created_at desc, then id desc). */
  listTokens(userId: string): Promise<ApiToken[]>;
  /** One page of the user's tokens, newest first, after `after` (the last row of the previous page). */
  listTokensPage(
    userId: string,
    limit: number,
    after?: { createdAt: number; id: string },
  ): Promise<ApiToken[]>;
  countActiveTokens(userId: string, now: number): Promise<number>;
  revokeToken(id: string, at: number, rotatedTo?: string): Promise<boolean>;
  /** Revokes every live access token of an OAuth grant; answers their hashes. */
  revokeGrantTokens(grantId: string, at: number): Promise<string[]>;
  touchToken(id: string, at: number): Promise<void>;
  insertSession(session: SessionsTable): Promise<void>;
  findSession(idHash: string): Promise<{ user: UsersTable; expires_at: number } | undefined>;
  deleteSession(idHash: string): Promise<void>;
  /** Deletes the user's expired sessions, then all but the `keep` newest (by creation). */
  pruneSessions(userId: string, now: number, keep: number): Promise<void>;
  /** The account linked to this provider identity, if any. */
  findUserByIdentity(issuer: string, subject: string): Promise<UsersTable | undefined>;
  /**
   * Links an identity to an existing account. Refused with 23505: the identity is linked already
   * (`user_identities_pk`), or the account has another identity at this issuer (`user_identities_issuer_user_key`).
   */
  insertIdentity(identity: UserIdentitiesTable): Promise<void>;
  /** A new account and its identity, both or neither. */
  insertUserWithIdentity(user: UsersTable, identity: UserIdentitiesTable): Promise<void>;
  /** Notes a sign-in through this identity and the email the provider gave. */
  touchIdentity(issuer: string, subject: string, email: string, at: number): Promise<void>;
}

/**
 * A refused write shaped like PostgreSQL's (SQLSTATE in `code`, the constraint's name), so that code handling
 * the database's refusals treats the twin's alike.
 */
function constraintViolation(code: '23505' | '23503', constraint: string, message: string): Error {
  return Object.assign(new Error(message), { code, constraint });
}

const duplicateKey = (constraint: string) =>
  constraintViolation('23505', constraint, `duplicate key value violates unique constraint "${constraint}"`);

const missingUser = (table: string) =>
  constraintViolation(
    '23503',
    `${table}_user_id_fkey`,
    `insert or update on table "${table}" violates foreign key constraint "${table}_user_id_fkey"`,
  );

/** Tokens the owner made and manages; OAuth access tokens are listed and revoked through their grant. */
const isOwnToken = (token: ApiToken) => token.grant_id === null;

const newestFirst = (a: ApiToken, b: ApiToken) =>
  b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const isActive = (token: ApiToken, now: number) =>
  token.revoked_at === null && (token.expires_at === null || token.expires_at > now);

/** In-memory twin of the accounts store: the tables' keys, unique and foreign keys; reads return copies. */
export function createMemoryAccountsRepository(): AccountsRepository {
  const users = new Map<string, UsersTable>();
  const tokens = new Map<string, ApiToken>();
  const sessions = new Map<string, SessionsTable>();
  const identities = new Map<string, UserIdentitiesTable>();
  const identityKey = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);
  const checkUser = (user: UsersTable) => {
    if (users.has(user.id)) throw duplicateKey('users_pkey');
    if (userWithEmail(user.email)) throw duplicateKey('users_email_key');
  };
  const checkIdentity = (identity: UserIdentitiesTable) => {
    if (identities.has(identityKey(identity.issuer, identity.subject)))
      throw duplicateKey('user_identities_pk');
    for (const other of identities.values())
      if (other.issuer === identity.issuer && other.user_id === identity.user_id)
        throw duplicateKey('user_identities_issuer_user_key');
  };

  const userWithEmail = (email: string) => [...users.values()].find((u) => u.email === email);
  const tokenWithHash = (hash: string) => [...tokens.values()].find((t) => t.token_hash === hash);
  const copy = <T>(row: T | undefined): T | undefined =>
    row === undefined ? undefined : structuredClone(row);

  return {
    async countUsers() {
      return users.size;
    },
    async insertUser(user) {
      checkUser(user);
      users.set(user.id, structuredClone(user));
    },
    async findUserByEmail(email) {
      return copy(userWithEmail(email));
    },
    async findUserById(id) {
      return copy(users.get(id));
    },
    async updateUser(id, patch) {
      const user = users.get(id);
      if (!user) return;
      // Like Kysely's `set`, a key given as undefined is left out of the update.
      for (const [column, value] of Object.entries(patch))
        if (value !== undefined) Object.assign(user, { [column]: value });
    },
    async insertToken(token) {
      if (tokens.has(token.id)) throw duplicateKey('api_tokens_pkey');
      if (tokenWithHash(token.token_hash)) throw duplicateKey('api_tokens_token_hash_key');
      if (!users.has(token.user_id)) throw missingUser('api_tokens');
      tokens.set(token.id, structuredClone(token));
    },
    async findTokenByHash(hash) {
      const token = tokenWithHash(hash);
      const user = token && users.get(token.user_id);
      return token && user ? { token: structuredClone(token), user: structuredClone(user) } : undefined;
    },
    async findToken(id) {
      return copy(tokens.get(id));
    },
    async listTokens(userId) {
      return [...tokens.values()]
        .filter((t) => t.user_id === userId && isOwnToken(t))
        .sort(newestFirst)
        .map((t) => structuredClone(t));
    },
    async listTokensPage(userId, limit, after) {
      return [...tokens.values()]
        .filter((t) => t.user_id === userId && isOwnToken(t))
        .sort(newestFirst)
        .filter(
          (t) =>
            !after || t.created_at < after.createdAt || (t.created_at === after.createdAt && t.id < after.id),
        )
        .slice(0, limit)
        .map((t) => structuredClone(t));
    },
    async countActiveTokens(userId, now) {
      return [...tokens.values()].filter((t) => t.user_id === userId && isOwnToken(t) && isActive(t, now))
        .length;
    },
    async revokeToken(id, at, rotatedTo) {
      const token = tokens.get(id);
      if (!token || token.revoked_at !== null) return false;
      token.revoked_at = at;
      token.rotated_to = rotatedTo ?? null;
      return true;
    },
    async revokeGrantTokens(grantId, at) {
      const hashes: string[] = [];
      for (const token of tokens.values())
        if (token.grant_id === grantId && token.revoked_at === null) {
          token.revoked_at = at;
          hashes.push(token.token_hash);
        }
      return hashes;
    },
    async touchToken(id, at) {
      const token = tokens.get(id);
      if (token) token.last_used_at = at;
    },
    async insertSession(session) {
      if (sessions.has(session.id_hash)) throw duplicateKey('sessions_pkey');
      if (!users.has(session.user_id)) throw missingUser('sessions');
      sessions.set(session.id_hash, structuredClone(session));
    },
    async findSession(idHash) {
      const session = sessions.get(idHash);
      const user = session && users.get(session.user_id);
      return session && user ? { user: structuredClone(user), expires_at: session.expires_at } : undefined;
    },
    async deleteSession(idHash) {
      sessions.delete(idHash);
    },
    async pruneSessions(userId, now, keep) {
      const mine = [...sessions.values()]
        .filter((s) => s.user_id === userId)
        .sort((a, b) => b.created_at - a.created_at || (a.id_hash < b.id_hash ? 1 : -1));
      let kept = 0;
      for (const s of mine) {
        if (s.expires_at <= now || kept >= keep) sessions.delete(s.id_hash);
        else kept++;
      }
    },
    async findUserByIdentity(issuer, subject) {
      const identity = identities.get(identityKey(issuer, subject));
      return copy(identity && users.get(identity.user_id));
    },
    async insertIdentity(identity) {
      checkIdentity(identity);
      if (!users.has(identity.user_id)) throw missingUser('user_identities');
      identities.set(identityKey(identity.issuer, identity.subject), structuredClone(identity));
    },
    async insertUserWithIdentity(user, identity) {
      checkUser(user);
      checkIdentity(identity);
      users.set(user.id, structuredClone(user));
      identities.set(identityKey(identity.issuer, identity.subject), structuredClone(identity));
    },
    async touchIdentity(issuer, subject, email, at) {
      const identity = identities.get(identityKey(issuer, subject));
      if (identity) Object.assign(identity, { email, last_sign_in_at: at });
    },
  };
}
