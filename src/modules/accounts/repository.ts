import type { OrgAccess } from './principal.ts';
import type {
  ApiToken,
  InvitationsTable,
  MembershipsTable,
  OrganizationsTable,
  SessionsTable,
  TwoFactorTable,
  UserIdentitiesTable,
  UsersTable,
} from './tables.ts';

/*
 * The accounts storage ports. Kysely (PGlite and PostgreSQL): repository.kysely.ts, organizations.kysely.ts,
 * two-factor.kysely.ts; their in-memory twins: repository.memory.ts, tokens.memory.ts,
 * organizations.memory.ts, two-factor.memory.ts.
 */

/** A member as an organization's member list shows them. */
export interface MemberRow {
  userId: string;
  email: string;
  role: string;
  createdAt: number;
}

/** Users: each with a personal organization (same id, plan and override) and its owner membership. */
export interface UsersStore {
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
}

/** API tokens: the users' own and the OAuth access tokens of grants. */
export interface TokensStore {
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
}

/** Console sessions, stored by the hash of their id. */
export interface SessionsStore {
  insertSession(session: SessionsTable): Promise<void>;
  findSession(idHash: string): Promise<{ user: UsersTable; expires_at: number } | undefined>;
  deleteSession(idHash: string): Promise<void>;
  /** Deletes the user's expired sessions, then all but the `keep` newest (by creation). */
  pruneSessions(userId: string, now: number, keep: number): Promise<void>;
}

/** Identities at single sign-on providers, each linked to one account. */
export interface IdentitiesStore {
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
 * `createMemoryAccountsRepository` (repository.memory.ts) is its twin, run through the same suite
 * (test/accounts/repository.test.ts).
 */
export interface AccountsRepository
  extends UsersStore,
    TokensStore,
    SessionsStore,
    IdentitiesStore,
    OrganizationsStore {}

/** A sign-in challenge as read back. */
export interface SignInChallenge {
  userId: string;
  purpose: 'code' | 'enrol';
  expiresAt: number;
  tries: number;
}

/** The two-factor store: TOTP secrets, recovery codes, sign-in challenges (Kysely: two-factor.kysely.ts). */
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
