import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { randomBase62 } from '../../shared/ids.ts';
import type { PasswordHasher } from './password.ts';
import type { OrgAccess, Principal, PrincipalOf } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import type { UsersTable } from './tables.ts';
import { twoFactorRequired } from './token-cache.ts';
import { sha256Hex } from './token-format.ts';

export interface SessionsDeps {
  repo: Pick<
    AccountsRepository,
    'findUserByEmail' | 'insertSession' | 'findSession' | 'deleteSession' | 'pruneSessions' | 'findMembership'
  >;
  /** Whether a user has two-factor sign-in on (asked only for an organization that requires it). */
  twoFactorOn(userId: string): Promise<boolean>;
  /** Sessions an account of this plan may hold at once (undefined: no cap); a sign-in beyond ends the oldest. */
  sessionCap(plan: string): number | undefined;
  hasher: PasswordHasher;
  clock: Clock;
  principalOf: PrincipalOf;
  sessionTtlMs: number;
}

/** Console sessions: sign-in with email and password (or for a single sign-on), the cookie's check, sign-out. */
export function createSessions(deps: SessionsDeps) {
  const { repo, hasher, clock, principalOf } = deps;
  const sessionHash = (id: string) => sha256Hex(id);
  // A fixed hash to verify against when the email is unknown, so timing does not reveal which emails exist.
  let decoyHash: Promise<string> | undefined;

  /** The user whose password this is; `invalid_credentials` otherwise (same timing for unknown emails). */
  async function checkPassword(email: string, password: string): Promise<UsersTable> {
    const user = await repo.findUserByEmail(email.trim().toLowerCase());
    if (!user?.password_hash) {
      decoyHash ??= hasher.hash(randomBase62(16));
      await hasher.verify(await decoyHash, password);
      throw new AppError('invalid_credentials');
    }
    if (!(await hasher.verify(user.password_hash, password))) throw new AppError('invalid_credentials');
    return user;
  }

  /** A new console session for a user who proved who they are (a password, or single sign-on). */
  async function openSession(user: UsersTable): Promise<{ sessionId: string; principal: Principal }> {
    const sessionId = randomBytes(32).toString('base64url');
    const now = clock.now();
    const cap = deps.sessionCap(user.plan);
    // Room for this one: expired sessions go, then the oldest beyond the plan's cap (ended like a sign-out).
    if (cap !== undefined) await repo.pruneSessions(user.id, now, cap - 1);
    await repo.insertSession({
      id_hash: sessionHash(sessionId),
      user_id: user.id,
      created_at: now,
      expires_at: now + deps.sessionTtlMs,
    });
    return { sessionId, principal: principalOf(user, await accessIn(user, user.id)) };
  }

  /** The user's membership of an organization; another organization answers like a missing one. */
  async function accessIn(user: UsersTable, orgId: string): Promise<OrgAccess> {
    const access = await repo.findMembership(orgId, user.id);
    if (!access) throw new AppError('not_found', `no organization with id ${orgId}`);
    if (access.org.require_2fa && !(await deps.twoFactorOn(user.id))) throw twoFactorRequired(orgId);
    return access;
  }

  /** The session's principal, acting in `orgId` (default: the user's personal organization). */
  async function authenticateSession(sessionId: string, orgId?: string): Promise<Principal> {
    const idHash = sessionHash(sessionId);
    const found = await repo.findSession(idHash);
    if (!found || found.expires_at <= clock.now())
      throw new AppError('session_required', 'the session has ended; sign in again');
    return principalOf(found.user, await accessIn(found.user, orgId ?? found.user.id), undefined, idHash);
  }

  async function logout(sessionId: string) {
    await repo.deleteSession(sessionHash(sessionId));
  }

  return { checkPassword, openSession, authenticateSession, logout };
}
