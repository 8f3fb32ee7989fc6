import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { DebugLog } from '../../shared/log-and-ignore.ts';
import { type PasswordHasher, boundedHasher } from './password.ts';
import type { Plan } from './permissions.ts';
import { presentAccount } from './present.ts';
import { type PlanLimits, createPrincipalOf } from './principal.ts';
import type { AccountsRepository, TwoFactorRepository } from './repository.ts';
import { createMemoryTwoFactorRepository } from './two-factor.memory.ts';
import type { ExternalIdentity, SecretSealer } from './ports.ts';
import { createSignIn } from './sign-in.ts';
import { createTwoFactor } from './two-factor.ts';
import { createSessions } from './sessions.ts';
import { type SsoPolicy, SsoRefusal, createSsoSignIn } from './sso.ts';
import { createTokenCache } from './token-cache.ts';
import { createOrganizations } from './organizations.ts';
import { createTokens } from './tokens.ts';
import { createUsers } from './users.ts';

export interface AccountsDeps {
  repo: AccountsRepository;
  hasher: PasswordHasher;
  clock: Clock;
  plans: Readonly<Record<Plan, PlanLimits>>;
  sessionTtlMs: number;
  /** Tells other replicas to drop a revoked token from their caches. */
  announceRevocation?: (tokenHash: string) => void;
  /** Tells other replicas that a user's role or plan changed, so they drop that user's cached tokens. */
  announceUserChange?: (userId: string) => void;
  /** Tells other replicas that an organization's plan or two-factor rule changed. */
  announceOrgChange?: (orgId: string) => void;
  /** Two-factor sign-in: its store, the sealer of TOTP secrets, and whether every password account needs it. */
  twoFactor?: {
    repo: TwoFactorRepository;
    sealer: SecretSealer | undefined;
    sealerMissing?: string;
    required: boolean;
  };
  /** Who may sign in with single sign-on, and what a new account gets (unset: single sign-on is off). */
  sso?: SsoPolicy;
  /** Where a failed "last used" update is noted (debug: the bookkeeping is coarse and best effort). */
  log?: DebugLog;
}

export type AccountsService = ReturnType<typeof createAccountsService>;

/**
 * Users (users.ts), API tokens (tokens.ts) and console sessions (sessions.ts), with the token cache
 * (token-cache.ts) in front of every token check. A revocation or a changed role or plan drops the cached
 * entries here and is announced, so every other replica drops them too.
 */
export function createAccountsService(deps: AccountsDeps) {
  const { repo, clock } = deps;
  // Sign-ins, first starts and operator commands all hash through one bounded queue (password.ts).
  const hasher = boundedHasher(deps.hasher);
  const principalOf = createPrincipalOf(deps.plans);
  const twoFactorRepo = deps.twoFactor?.repo ?? createMemoryTwoFactorRepository();
  const twoFactorOn = async (userId: string) => (await twoFactorRepo.find(userId))?.confirmed_at != null;
  const cache = createTokenCache({ repo, clock, principalOf, twoFactorOn, log: deps.log });
  const userChanged = (userId: string) => {
    cache.dropUser(userId);
    deps.announceUserChange?.(userId);
  };
  const users = createUsers({
    repo,
    hasher,
    clock,
    userChanged,
  });
  const planOf = (plan: string) => deps.plans[plan as Plan] ?? deps.plans.standard;
  const revoked = (tokenHash: string) => {
    cache.drop(tokenHash);
    deps.announceRevocation?.(tokenHash);
  };
  const tokens = createTokens({ repo, clock, tokenCap: (plan) => planOf(plan).tokens, revoked });
  const organizations = createOrganizations({
    repo,
    clock,
    twoFactorOn,
    userChanged,
    revoked,
    orgChanged(orgId) {
      cache.dropOrg(orgId);
      deps.announceOrgChange?.(orgId);
    },
  });
  const sessions = createSessions({
    repo,
    hasher,
    clock,
    principalOf,
    sessionTtlMs: deps.sessionTtlMs,
    sessionCap: (plan) => planOf(plan).sessions,
    twoFactorOn,
  });
  const twoFactor = createTwoFactor({
    repo: twoFactorRepo,
    sealer: deps.twoFactor?.sealer,
    sealerMissing: deps.twoFactor?.sealerMissing,
    clock,
  });
  const requireTwoFactor = deps.twoFactor?.required ?? false;
  const signIn = createSignIn({ repo, twoFactorRepo, sessions, twoFactor, clock, requireTwoFactor });

  const sso =
    deps.sso && createSsoSignIn({ repo, clock, policy: deps.sso, openSession: sessions.openSession });

  return {
    createUser: users.createUser,
    setPlan: users.setPlan,
    setRole: users.setRole,
    findUserByEmail: users.findUserByEmail,
    countUsers: users.countUsers,
    createToken: tokens.createToken,
    listTokens: tokens.listTokens,
    grantsOfTokens: tokens.grantsOfTokens,
    listTokensPage: tokens.listTokensPage,
    countActiveTokens: tokens.countActiveTokens,
    revokeToken: tokens.revokeToken,
    rotateToken: tokens.rotateToken,
    issueGrantToken: tokens.issueGrantToken,
    revokeGrantTokens: tokens.revokeGrantTokens,
    grantOfToken: tokens.grantOfToken,
    authenticateToken: cache.authenticateToken,
    peekTokenHash: cache.peekTokenHash,
    signIn: signIn.signIn,
    challengeOf: signIn.challengeOf,
    completeSignIn: signIn.completeSignIn,
    beginEnrolmentAtSignIn: signIn.beginEnrolment,
    confirmEnrolmentAtSignIn: signIn.confirmEnrolment,
    twoFactorStatus: async (userId: string) => ({
      ...(await twoFactor.status(userId)),
      required: requireTwoFactor,
    }),
    beginTwoFactor: twoFactor.begin,
    confirmTwoFactor: twoFactor.confirm,
    /** Turns two-factor sign-in off (refused while the operator requires it for every account). */
    async disableTwoFactor(userId: string, code: string) {
      if (requireTwoFactor)
        throw new AppError(
          'conflict',
          'this server requires two-factor sign-in for every account (MERIDIAN_REQUIRE_2FA)',
        );
      return twoFactor.disable(userId, code);
    },
    authenticateSession: sessions.authenticateSession,
    logout: sessions.logout,
    /** A console session for an identity the OpenID Connect provider vouched for; throws `SsoRefusal`. */
    signInWithIdentity(identity: ExternalIdentity) {
      if (!sso) throw new SsoRefusal('unavailable', 'single sign-on is not configured');
      return sso.signIn(identity);
    },
    account: presentAccount,
    /** Called when another replica announces a revocation. */
    dropCached: cache.drop,
    /** Called when another replica announces a changed role or plan. */
    dropUser: cache.dropUser,
    /** Called when another replica announces a changed organization. */
    dropOrg: cache.dropOrg,
    organizations,
    /** True while a cached principal for this token is still valid (used by the push channel's sweeps). */
    isTokenStillValid: tokens.isTokenStillValid,
  };
}
