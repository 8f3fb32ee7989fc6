import { type Permission, type Plan, type Role, effectivePermissions } from './permissions.ts';
import type { ApiToken, UsersTable } from './tables.ts';

/** Who is calling: resolved once per request by the auth plugin, from an API token or a console session. */
export interface Principal {
  kind: 'token' | 'session';
  userId: string;
  email: string;
  role: Role;
  plan: Plan;
  /** Requests per 60-second window for this account (plan or per-account override). */
  rateLimit: number;
  /** The account's key in the rate limiter (`accountLimitKey`), built once with the principal. */
  rateLimitKey: string;
  /** Concurrent push-channel connections allowed for this account. */
  wsConnections: number;
  permissions: ReadonlySet<Permission>;
  tokenId?: string;
  /**
   * The stored hash of the credential that resolved this principal (the token's hash, or the session id's),
   * so that code closing what a revoked credential opened needs no second hash of the secret.
   */
  credentialHash?: string;
  tokenExpiresAt?: number | null;
  /** When the account was created (ms). */
  createdAt: number;
}

export interface PlanLimits {
  rateLimit: number;
  wsConnections: number;
  /** Active API tokens an account may have (optional: unset means no cap, as in unit tests' plans). */
  tokens?: number;
  /** Console sessions an account may hold at once; a sign-in beyond it ends the oldest. */
  sessions?: number;
}

/**
 * The rate limiter's key of an account: one window per account, shared by its tokens and console sessions.
 * A principal carries it built once, as the hot path would otherwise build and hash the string per request.
 */
export const accountLimitKey = (userId: string): string => `acct:${userId}`;

/** Builds the principal of a stored user, from a token of theirs or (without one) from a console session. */
export type PrincipalOf = (user: UsersTable, token?: ApiToken, sessionIdHash?: string) => Principal;

/** The principal builder for these plans: the user's plan gives the limits, a per-account override wins. */
export function createPrincipalOf(plans: Readonly<Record<Plan, PlanLimits>>): PrincipalOf {
  const limitsOf = (user: UsersTable): PlanLimits => {
    const plan = plans[user.plan as Plan] ?? plans.standard;
    return {
      ...plan,
      rateLimit: user.rate_limit_override ?? plan.rateLimit,
      wsConnections: plan.wsConnections,
    };
  };

  return (user, token, sessionIdHash) => {
    const role = user.role as Role;
    const limits = limitsOf(user);
    return {
      kind: token ? 'token' : 'session',
      userId: user.id,
      email: user.email,
      role,
      plan: user.plan as Plan,
      rateLimit: limits.rateLimit,
      rateLimitKey: accountLimitKey(user.id),
      wsConnections: limits.wsConnections,
      permissions: new Set(effectivePermissions(role, token?.permissions ?? null)),
      tokenId: token?.id,
      credentialHash: token?.token_hash ?? sessionIdHash,
      tokenExpiresAt: token?.expires_at ?? null,
      createdAt: user.created_at,
    };
  };
}
