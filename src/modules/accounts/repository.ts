import type { OrgAccess } from './principal.ts';
import type {
  ApiToken,
  InvitationsTable,
  MembershipsTable,
  OrganizationsTable,
  RecoveryCodesTable,
  SessionsTable,
  TwoFactorTable,
  UserIdentitiesTable,
  UsersTable,
} from './tables.ts';

/** A member as an organization's member list shows them. */
export interface MemberRow {
  userId: string;
  email: string;
  role: string;
  createdAt: number;
}

/** Organizations, memberships and invitations: the part of the accounts store about organizations. */
export interface OrganizationsStore {
  findOrganization(id: string): Promise<OrganizationsTable | undefined>;
  /** A new organization and its owner's membership, both or neither. */
  insertOrganization(org: OrganizationsTable, ownerId: string): Promise<void>;
  updateOrganization(
    id: string,
    patch: Partial<Pick<OrganizationsTable, 'name' | 'require_2fa' | 'plan' | 'rate_limit_override'>>,
  ): Promise<void>;
  findMembership(orgId: string, userId: string): Promise<OrgAccess | undefined>;
  /** The organizations a user belongs to, personal first, then by creation. */
  listMemberships(userId: string): Promise<OrgAccess[]>;
  listMembers(orgId: string): Promise<MemberRow[]>;
  setMemberRole(orgId: string, userId: string, role: string): Promise<void>;
  deleteMembership(orgId: string, userId: string): Promise<boolean>;
  countOwners(orgId: string): Promise<number>;
  /** `to` becomes an owner and `from` an admin, both or neither. */
  transferOwnership(orgId: string, from: string, to: string): Promise<void>;
  /** Revokes a member's live tokens in an organization; answers their hashes. */
  revokeMemberTokens(orgId: string, userId: string, at: number): Promise<string[]>;
  insertInvitation(invitation: InvitationsTable): Promise<void>;
  findInvitationByHash(hash: string): Promise<InvitationsTable | undefined>;
  /** An organization's invitations not yet accepted, newest first. */
  listInvitations(orgId: string): Promise<InvitationsTable[]>;
  deleteInvitation(orgId: string, id: string): Promise<boolean>;
  /**
   * Marks the invitation accepted and adds the membership, both or neither; false when it was accepted
   * already. Refused with 23505 (`memberships_pk`) when the user is a member already.
   */
  acceptInvitation(id: string, membership: MembershipsTable): Promise<boolean>;
  /** Active tokens of an organization (all its members' own tokens). */
  countActiveOrgTokens(orgId: string, now: number): Promise<number>;
}

/**
 * The accounts store port. `repository.kysely.ts` implements it on PGlite and PostgreSQL;
 * `createMemoryAccountsRepository` is its twin, run through the same suite (test/accounts/repository.test.ts).
 */
export interface AccountsRepository extends OrganizationsStore {
  countUsers(): Promise<number>;
  /** A user with their personal organization (same id, plan and override) and its owner membership. */
  insertUser(user: UsersTable): Promise<void>;
  findUserByEmail(email: string): Promise<UsersTable | undefined>;
  findUserById(id: string): Promise<UsersTable | undefined>;
  /** A plan or override given here is the personal organization's too. */
  updateUser(
    id: string,
    patch: Partial<Pick<UsersTable, 'plan' | 'rate_limit_override' | 'role'>>,
  ): Promise<void>;
  insertToken(token: ApiToken): Promise<void>;
  /** The token, its issuer, and the issuer's membership of the token's organization (none: removed). */
  findTokenByHash(
    hash: string,
  ): Promise<{ token: ApiToken; user: UsersTable; access: OrgAccess | undefined } | undefined>;
  findToken(id: string): Promise<ApiToken | undefined>;
  /**
   * The user's own tokens (not OAuth access tokens), newest first (created_at desc, then id desc); only
   * those of one organization when `orgId` is given (all its members' without a user).
   */
  listTokens(userId: string | undefined, orgId?: string): Promise<ApiToken[]>;
  /** Which of an organization's tokens `ids` are OAuth access tokens, with their grant (revoked and expired too). */
  grantsOfTokens(orgId: string, ids: readonly string[]): Promise<Array<{ id: string; grant_id: string }>>;
  /** One page of the user's tokens, newest first, after `after` (the last row of the previous page). */
  listTokensPage(
    userId: string,
    limit: number,
    after?: { createdAt: number; id: string },
    orgId?: string,
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
  const orgs = createMemoryOrganizationsStore(users, tokens);
  const addPersonal = (user: UsersTable) => orgs.addPersonal(user);
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
    ...orgs.store,
    async insertUser(user) {
      checkUser(user);
      users.set(user.id, structuredClone(user));
      addPersonal(user);
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
      const { plan, rate_limit_override } = patch;
      await orgs.store.updateOrganization(id, { plan, rate_limit_override });
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
      if (!token || !user) return undefined;
      const access = await orgs.store.findMembership(token.org_id, token.user_id);
      return { token: structuredClone(token), user: structuredClone(user), access };
    },
    async findToken(id) {
      return copy(tokens.get(id));
    },
    async listTokens(userId, orgId) {
      return [...tokens.values()]
        .filter(
          (t) =>
            (userId === undefined || t.user_id === userId) &&
            isOwnToken(t) &&
            (orgId === undefined || t.org_id === orgId),
        )
        .sort(newestFirst)
        .map((t) => structuredClone(t));
    },
    async grantsOfTokens(orgId, ids) {
      const out: Array<{ id: string; grant_id: string }> = [];
      for (const id of ids) {
        const t = tokens.get(id);
        if (t && t.org_id === orgId && t.grant_id !== null) out.push({ id, grant_id: t.grant_id });
      }
      return out;
    },
    async listTokensPage(userId, limit, after, orgId) {
      return [...tokens.values()]
        .filter((t) => t.user_id === userId && isOwnToken(t) && (orgId === undefined || t.org_id === orgId))
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
      addPersonal(user);
      identities.set(identityKey(identity.issuer, identity.subject), structuredClone(identity));
    },
    async touchIdentity(issuer, subject, email, at) {
      const identity = identities.get(identityKey(issuer, subject));
      if (identity) Object.assign(identity, { email, last_sign_in_at: at });
    },
  };
}

/** The organizations part of the in-memory twin, over the twin's users and tokens. */
function createMemoryOrganizationsStore(users: Map<string, UsersTable>, tokens: Map<string, ApiToken>) {
  const orgs = new Map<string, OrganizationsTable>();
  const members = new Map<string, MembershipsTable>();
  const invitations = new Map<string, InvitationsTable>();
  const memberKey = (orgId: string, userId: string) => JSON.stringify([orgId, userId]);
  const accessOf = (m: MembershipsTable): OrgAccess => ({
    org: structuredClone(orgs.get(m.org_id)!),
    role: m.role as OrgAccess['role'],
  });
  const insertMember = (m: MembershipsTable) => {
    if (members.has(memberKey(m.org_id, m.user_id))) throw duplicateKey('memberships_pk');
    if (!users.has(m.user_id)) throw missingUser('memberships');
    members.set(memberKey(m.org_id, m.user_id), { ...m });
  };
  const store: OrganizationsStore = {
    async findOrganization(id) {
      const org = orgs.get(id);
      return org && { ...org };
    },
    async insertOrganization(org, ownerId) {
      if (orgs.has(org.id)) throw duplicateKey('organizations_pkey');
      if (!users.has(ownerId)) throw missingUser('memberships');
      orgs.set(org.id, { ...org });
      insertMember({ org_id: org.id, user_id: ownerId, role: 'owner', created_at: org.created_at });
    },
    async updateOrganization(id, patch) {
      const org = orgs.get(id);
      if (!org) return;
      for (const [column, value] of Object.entries(patch))
        if (value !== undefined) Object.assign(org, { [column]: value });
    },
    async findMembership(orgId, userId) {
      const m = members.get(memberKey(orgId, userId));
      return m && accessOf(m);
    },
    async listMemberships(userId) {
      return [...members.values()]
        .filter((m) => m.user_id === userId)
        .map(accessOf)
        .sort(
          (a, b) =>
            Number(b.org.personal) - Number(a.org.personal) ||
            a.org.created_at - b.org.created_at ||
            (a.org.id < b.org.id ? -1 : 1),
        );
    },
    async listMembers(orgId) {
      return [...members.values()]
        .filter((m) => m.org_id === orgId)
        .sort((a, b) => a.created_at - b.created_at || (a.user_id < b.user_id ? -1 : 1))
        .map((m) => ({
          userId: m.user_id,
          email: users.get(m.user_id)!.email,
          role: m.role,
          createdAt: m.created_at,
        }));
    },
    async setMemberRole(orgId, userId, role) {
      const m = members.get(memberKey(orgId, userId));
      if (m) m.role = role;
    },
    async deleteMembership(orgId, userId) {
      return members.delete(memberKey(orgId, userId));
    },
    async countOwners(orgId) {
      return [...members.values()].filter((m) => m.org_id === orgId && m.role === 'owner').length;
    },
    async transferOwnership(orgId, from, to) {
      const a = members.get(memberKey(orgId, from));
      const b = members.get(memberKey(orgId, to));
      if (!a || !b) return;
      a.role = 'admin';
      b.role = 'owner';
    },
    async revokeMemberTokens(orgId, userId, at) {
      const hashes: string[] = [];
      for (const t of tokens.values())
        if (t.org_id === orgId && t.user_id === userId && t.revoked_at === null) {
          t.revoked_at = at;
          hashes.push(t.token_hash);
        }
      return hashes;
    },
    async insertInvitation(invitation) {
      if (invitations.has(invitation.id)) throw duplicateKey('invitations_pkey');
      invitations.set(invitation.id, { ...invitation });
    },
    async findInvitationByHash(hash) {
      const found = [...invitations.values()].find((i) => i.token_hash === hash);
      return found && { ...found };
    },
    async listInvitations(orgId) {
      return [...invitations.values()]
        .filter((i) => i.org_id === orgId && i.accepted_at === null)
        .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
        .map((i) => ({ ...i }));
    },
    async deleteInvitation(orgId, id) {
      const found = invitations.get(id);
      if (!found || found.org_id !== orgId) return false;
      return invitations.delete(id);
    },
    async acceptInvitation(id, membership) {
      const found = invitations.get(id);
      if (!found || found.accepted_at !== null) return false;
      insertMember(membership);
      found.accepted_at = membership.created_at;
      found.accepted_by = membership.user_id;
      return true;
    },
    async countActiveOrgTokens(orgId, now) {
      return [...tokens.values()].filter((t) => t.org_id === orgId && isOwnToken(t) && isActive(t, now))
        .length;
    },
  };
  return {
    store,
    addPersonal(user: UsersTable) {
      orgs.set(user.id, {
        id: user.id,
        name: user.email,
        plan: user.plan,
        rate_limit_override: user.rate_limit_override,
        require_2fa: false,
        personal: true,
        created_at: user.created_at,
      });
      members.set(memberKey(user.id, user.id), {
        org_id: user.id,
        user_id: user.id,
        role: 'owner',
        created_at: user.created_at,
      });
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
