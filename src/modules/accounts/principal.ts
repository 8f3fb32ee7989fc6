import {
  type OrgRole,
  type Permission,
  type Plan,
  type Role,
  effectivePermissions,
  permissionsIn,
} from './permissions.ts';
import type { ApiToken, OrganizationsTable, UsersTable } from './tables.ts';

/** Who is calling: resolved once per request by the auth plugin, from an API token or a console session. */
export interface Principal {
  kind: 'token' | 'session';
  userId: string;
  /**
   * The organization acted in: the owner of every resource the request touches, of its usage and its rate
   * limit. A token's is fixed; a session's is its personal one unless the `Meridian-Organization` header names
   * another it belongs to.
   */
  orgId: string;
  /** The caller's role in that organization. */
  orgRole: OrgRole;
  email: string;
  /** The account's server-wide role (caps what it may do in any organization). */
  role: Role;
  /** The organization's plan. */
  plan: Plan;
  /** Requests per 60-second window for this organization (plan or per-organization override). */
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
 * The rate limiter's key of an organization (a personal one's id is its user's): one window per organization,
 * shared by its members' tokens and console sessions.
 * A principal carries it built once, as the hot path would otherwise build and hash the string per request.
 */
export const accountLimitKey = (userId: string): string => `acct:${userId}`;

/** A user's membership of an organization, as the principal is built from it. */
export interface OrgAccess {
  org: OrganizationsTable;
  role: OrgRole;
}

/**
 * Builds the principal of a stored user acting in an organization they belong to, from a token of theirs or
 * (without one) from a console session.
 */
export type PrincipalOf = (
  user: UsersTable,
  access: OrgAccess,
  token?: ApiToken,
  sessionIdHash?: string,
) => Principal;

/** The principal builder for these plans: the organization's plan gives the limits, its override wins. */
export function createPrincipalOf(plans: Readonly<Record<Plan, PlanLimits>>): PrincipalOf {
  const limitsOf = (org: OrganizationsTable): PlanLimits => {
    const plan = plans[org.plan as Plan] ?? plans.standard;
    return {
      ...plan,
      rateLimit: org.rate_limit_override ?? plan.rateLimit,
      wsConnections: plan.wsConnections,
    };
  };

  return (user, access, token, sessionIdHash) => {
    const role = user.role as Role;
    const { org } = access;
    const limits = limitsOf(org);
    return {
      kind: token ? 'token' : 'session',
      userId: user.id,
      orgId: org.id,
      orgRole: access.role,
      email: user.email,
      role,
      plan: (plans[org.plan as Plan] ? org.plan : 'standard') as Plan,
      rateLimit: limits.rateLimit,
      rateLimitKey: accountLimitKey(org.id),
      wsConnections: limits.wsConnections,
      permissions: new Set(
        effectivePermissions(permissionsIn(role, access.role), token?.permissions ?? null),
      ),
      tokenId: token?.id,
      credentialHash: token?.token_hash ?? sessionIdHash,
      tokenExpiresAt: token?.expires_at ?? null,
      createdAt: user.created_at,
    };
  };
}
