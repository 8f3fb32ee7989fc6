import type { Clock } from '../../shared/clock.ts';
import { newId } from '../../shared/ids.ts';
import type { Plan, Role } from './permissions.ts';
import type { ExternalIdentity } from './ports.ts';
import type { Principal } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import type { UserIdentitiesTable, UsersTable } from './tables.ts';

/** Why a single sign-on ended without a session; the console shows a sentence per reason. */
export const SSO_REFUSALS = [
  'denied',
  'failed',
  'expired',
  'unavailable',
  'email_unverified',
  'domain_not_allowed',
  'linked_elsewhere',
] as const;
export type SsoRefusalReason = (typeof SSO_REFUSALS)[number];

/** A single sign-on that must not open a session; `detail` is for the log, never for the browser. */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoRefusalReason,
    readonly detail: string,
  ) {
    super(`single sign-on refused (${reason}): ${detail}`);
    this.name = 'SsoRefusal';
  }
}

export interface SsoPolicy {
  /** Lower-case email domains allowed to sign in; `*` allows any. */
  allowedDomains: readonly string[];
  defaultRole: Role;
  defaultPlan: Plan;
}

export interface SsoSignInDeps {
  repo: Pick<
    AccountsRepository,
    'findUserByIdentity' | 'findUserByEmail' | 'insertIdentity' | 'insertUserWithIdentity' | 'touchIdentity'
  >;
  clock: Clock;
  policy: SsoPolicy;
  openSession(user: UsersTable): Promise<{ sessionId: string; principal: Principal }>;
}

/** How the account of a successful single sign-on was found. */
export type SsoOutcome = 'signed_in' | 'created' | 'linked';

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === constraint;

/**
 * The account side of single sign-on. The provider's `sub` within its issuer names the account; an identity
 * seen for the first time needs a verified email of an allowed domain, and then either links to the account
 * with that email or creates one (role and plan from the policy, no password).
 */
export function createSsoSignIn(deps: SsoSignInDeps) {
  const { repo, clock, policy } = deps;
  const anyDomain = policy.allowedDomains.includes('*');

  function admitted(identity: ExternalIdentity): string {
    const email = identity.email?.trim().toLowerCase();
    if (!email || !identity.emailVerified)
      throw new SsoRefusal(
        'email_unverified',
        `the provider did not vouch for an email of ${identity.subject}`,
      );
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!anyDomain && !policy.allowedDomains.includes(domain))
      throw new SsoRefusal('domain_not_allowed', `email domain ${domain} is not allowed`);
    return email;
  }

  async function accountOf(
    identity: ExternalIdentity,
    email: string,
  ): Promise<{ user: UsersTable; outcome: SsoOutcome }> {
    const known = await repo.findUserByIdentity(identity.issuer, identity.subject);
    if (known) {
      await repo.touchIdentity(identity.issuer, identity.subject, email, clock.now());
      return { user: known, outcome: 'signed_in' };
    }
    const now = clock.now();
    const link: UserIdentitiesTable = {
      issuer: identity.issuer,
      subject: identity.subject,
      user_id: '',
      email,
      created_at: now,
      last_sign_in_at: now,
    };
    const existing = await repo.findUserByEmail(email);
    if (existing) {
      try {
        await repo.insertIdentity({ ...link, user_id: existing.id });
      } catch (error) {
        if (isUniqueViolation(error, 'user_identities_issuer_user_key'))
          throw new SsoRefusal('linked_elsewhere', `${email} is linked to another identity of this provider`);
        if (isUniqueViolation(error, 'user_identities_pk')) return retry(identity);
        throw error;
      }
      return { user: existing, outcome: 'linked' };
    }
    const user: UsersTable = {
      id: newId('usr'),
      email,
      password_hash: null,
      role: policy.defaultRole,
      plan: policy.defaultPlan,
      rate_limit_override: null,
      created_at: now,
    };
    try {
      await repo.insertUserWithIdentity(user, { ...link, user_id: user.id });
    } catch (error) {
      // A parallel first sign-in of the same person won the race: use the account it made.
      if (isUniqueViolation(error, 'user_identities_pk') || isUniqueViolation(error, 'users_email_key'))
        return retry(identity);
      throw error;
    }
    return { user, outcome: 'created' };
  }

  async function retry(identity: ExternalIdentity): Promise<{ user: UsersTable; outcome: SsoOutcome }> {
    const user = await repo.findUserByIdentity(identity.issuer, identity.subject);
    if (!user) throw new SsoRefusal('failed', 'a parallel sign-in took the email of this identity');
    return { user, outcome: 'signed_in' };
  }

  return {
    /** Opens a console session for a provider identity, or throws `SsoRefusal`. */
    async signIn(identity: ExternalIdentity) {
      const email = admitted(identity);
      const { user, outcome } = await accountOf(identity, email);
      const session = await deps.openSession(user);
      return { ...session, outcome };
    },
  };
}
