import type {
  ApiToken,
  RecoveryCodesTable,
  SessionsTable,
  TwoFactorTable,
  UserIdentitiesTable,
  UsersTable,
} from './tables.ts';

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
  /** Which of the user's tokens `ids` are OAuth access tokens, with their grant (revoked and expired too). */
  grantsOfTokens(userId: string, ids: readonly string[]): Promise<Array<{ id: string; grant_id: string }>>;
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
    async grantsOfTokens(userId, ids) {
      const out: Array<{ id: string; grant_id: string }> = [];
      for (const id of ids) {
        const t = tokens.get(id);
        if (t && t.user_id === userId && t.grant_id !== null) out.push({ id, grant_id: t.grant_id });
      }
      return out;
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

/** A sign-in challenge as read back. */
export interface SignInChallenge {
  userId: string;
  purpose: 'code' | 'enrol';
  expiresAt: number;
  tries: number;
}

/** The two-factor store: TOTP secrets, recovery codes, sign-in challenges (Kysely: repository.kysely.ts). */
export interface TwoFactorRepository {
  find(userId: string): Promise<TwoFactorTable | undefined>;
  /** Starts (or restarts) an unconfirmed enrolment; false when a confirmed one exists. */
  putPending(row: Omit<TwoFactorTable, 'confirmed_at' | 'last_step'>): Promise<boolean>;
  /** Confirms the pending enrolment and stores its recovery codes; false when there is none pending. */
  confirm(userId: string, at: number, step: number, codeHashes: string[]): Promise<boolean>;
  /** Moves `last_step` forward to `step`; false when a code of that step (or later) was accepted already. */
  advanceStep(userId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used; false when it is unknown or used. */
  useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean>;
  countUnusedRecoveryCodes(userId: string): Promise<number>;
  /** Removes the secret and the recovery codes. */
  remove(userId: string): Promise<void>;
  /** Stores a challenge, and drops the user's challenges that expired before `now`. */
  insertChallenge(idHash: string, challenge: Omit<SignInChallenge, 'tries'>, now: number): Promise<void>;
  findChallenge(idHash: string): Promise<SignInChallenge | undefined>;
  /** Counts a wrong code; returns the tries so far. */
  failChallenge(idHash: string): Promise<number>;
  deleteChallenge(idHash: string): Promise<void>;
}

export function createMemoryTwoFactorRepository(): TwoFactorRepository {
  const secrets = new Map<string, TwoFactorTable>();
  const codes = new Map<string, RecoveryCodesTable[]>();
  const challenges = new Map<string, SignInChallenge>();
  return {
    async find(userId) {
      const row = secrets.get(userId);
      return row && { ...row };
    },
    async putPending(row) {
      if (secrets.get(row.user_id)?.confirmed_at != null) return false;
      secrets.set(row.user_id, { ...row, confirmed_at: null, last_step: null });
      return true;
    },
    async confirm(userId, at, step, codeHashes) {
      const row = secrets.get(userId);
      if (!row || row.confirmed_at !== null) return false;
      Object.assign(row, { confirmed_at: at, last_step: step });
      codes.set(
        userId,
        codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })),
      );
      return true;
    },
    async advanceStep(userId, step) {
      const row = secrets.get(userId);
      if (!row || (row.last_step !== null && row.last_step >= step)) return false;
      row.last_step = step;
      return true;
    },
    async useRecoveryCode(userId, codeHash, at) {
      const code = codes.get(userId)?.find((c) => c.code_hash === codeHash && c.used_at === null);
      if (!code) return false;
      code.used_at = at;
      return true;
    },
    async countUnusedRecoveryCodes(userId) {
      return (codes.get(userId) ?? []).filter((c) => c.used_at === null).length;
    },
    async remove(userId) {
      secrets.delete(userId);
      codes.delete(userId);
    },
    async insertChallenge(idHash, challenge, now) {
      for (const [key, c] of challenges)
        if (c.userId === challenge.userId && c.expiresAt <= now) challenges.delete(key);
      challenges.set(idHash, { ...challenge, tries: 0 });
    },
    async findChallenge(idHash) {
      const found = challenges.get(idHash);
      return found && { ...found };
    },
    async failChallenge(idHash) {
      const found = challenges.get(idHash);
      if (!found) return Number.POSITIVE_INFINITY;
      return ++found.tries;
    },
    async deleteChallenge(idHash) {
      challenges.delete(idHash);
    },
  };
}
