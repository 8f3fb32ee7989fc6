import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { Principal } from './principal.ts';
import type { AccountsRepository, SignInChallenge, TwoFactorRepository } from './repository.ts';
import type { createSessions } from './sessions.ts';
import type { CodeKind, TwoFactor } from './two-factor.ts';
import { sha256Hex } from './token-format.ts';

/** How long the code step of a sign-in stays open after the password step. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes one challenge takes before it is gone (the password must be given again). */
export const CHALLENGE_TRIES = 5;

type Sessions = ReturnType<typeof createSessions>;

/** A password sign-in's answer: a session, or the second step it needs (a code, or an enrolment first). */
export type SignInResult =
  | { step: 'done'; sessionId: string; principal: Principal }
  | { step: 'code' | 'enrol'; challenge: string; expiresAt: number; userId: string };

export interface SignInDeps {
  repo: Pick<AccountsRepository, 'findUserById'>;
  twoFactorRepo: Pick<
    TwoFactorRepository,
    'insertChallenge' | 'findChallenge' | 'failChallenge' | 'deleteChallenge'
  >;
  sessions: Pick<Sessions, 'checkPassword' | 'openSession'>;
  twoFactor: TwoFactor;
  clock: Clock;
  /** MERIDIAN_REQUIRE_2FA: an account without two-factor sign-in must enrol before it gets a session. */
  requireTwoFactor: boolean;
}

/**
 * Sign-in in one or two steps: the password, then — for an account with two-factor sign-in, or any account
 * when the operator requires it — a code against a short-lived challenge (stored hashed, like a session id).
 */
export function createSignIn(deps: SignInDeps) {
  const { repo, twoFactorRepo, sessions, twoFactor, clock } = deps;

  async function signIn(email: string, password: string): Promise<SignInResult> {
    const user = await sessions.checkPassword(email, password);
    const enrolled = await twoFactor.isEnrolled(user.id);
    if (!enrolled && !deps.requireTwoFactor) return { step: 'done', ...(await sessions.openSession(user)) };
    const challenge = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expiresAt = now + CHALLENGE_TTL_MS;
    const purpose = enrolled ? 'code' : 'enrol';
    await twoFactorRepo.insertChallenge(sha256Hex(challenge), { userId: user.id, purpose, expiresAt }, now);
    return { step: purpose, challenge, expiresAt, userId: user.id };
  }

  /** The user a challenge belongs to; 401 when it is unknown, used up or expired. */
  async function challengeOf(
    challenge: string,
    purpose: SignInChallenge['purpose'],
  ): Promise<SignInChallenge> {
    const found = await twoFactorRepo.findChallenge(sha256Hex(challenge));
    if (!found || found.purpose !== purpose || found.expiresAt <= clock.now())
      throw new AppError(
        'unauthenticated',
        'this sign-in has expired or was already used; enter the password again',
      );
    return found;
  }

  async function wrongCode(challenge: string): Promise<never> {
    const idHash = sha256Hex(challenge);
    if ((await twoFactorRepo.failChallenge(idHash)) >= CHALLENGE_TRIES)
      await twoFactorRepo.deleteChallenge(idHash);
    throw new AppError('invalid_code');
  }

  async function userOf(userId: string) {
    const user = await repo.findUserById(userId);
    if (!user) throw new AppError('unauthenticated', 'this account no longer exists');
    return user;
  }

  /** The code step: a TOTP code or a recovery code; a session when it matches. */
  async function completeSignIn(
    challenge: string,
    code: string,
  ): Promise<{ sessionId: string; principal: Principal; codeKind: CodeKind }> {
    const found = await challengeOf(challenge, 'code');
    const codeKind = await twoFactor.verify(found.userId, code);
    if (!codeKind) return wrongCode(challenge);
    await twoFactorRepo.deleteChallenge(sha256Hex(challenge));
    return { ...(await sessions.openSession(await userOf(found.userId))), codeKind };
  }

  /** Required enrolment, first half: the new secret for an account that has none. */
  async function beginEnrolment(challenge: string) {
    const found = await challengeOf(challenge, 'enrol');
    const user = await userOf(found.userId);
    return twoFactor.begin(user.id, user.email);
  }

  /** Required enrolment, second half: the first code turns two-factor on and opens the session. */
  async function confirmEnrolment(challenge: string, code: string) {
    const found = await challengeOf(challenge, 'enrol');
    let recoveryCodes: string[];
    try {
      ({ recoveryCodes } = await twoFactor.confirm(found.userId, code));
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_code') return wrongCode(challenge);
      throw error;
    }
    await twoFactorRepo.deleteChallenge(sha256Hex(challenge));
    return { ...(await sessions.openSession(await userOf(found.userId))), recoveryCodes };
  }

  return { signIn, challengeOf, completeSignIn, beginEnrolment, confirmEnrolment };
}
