import type { Permission, Plan, Role } from './permissions.ts';
import type { Principal } from './principal.ts';
import type { ApiToken } from './tables.ts';

/** A token as listed to its owner: never the secret, never the hash. */
export interface TokenView {
  id: string;
  name: string;
  start: string;
  permissions: Permission[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

export interface AccountView {
  id: string;
  email: string;
  role: Role;
  plan: Plan;
  limits: { requestsPerMinute: number; wsConnections: number };
  permissions: Permission[];
  authenticatedWith: 'token' | 'session';
  createdAt: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored token as its owner sees it at `now` (its status depends on the time). */
export function presentToken(t: ApiToken, now: number): TokenView {
  const status =
    t.revoked_at !== null ? 'revoked' : t.expires_at !== null && t.expires_at <= now ? 'expired' : 'active';
  return {
    id: t.id,
    name: t.name,
    start: `${t.start}…`,
    permissions: (t.permissions as Permission[] | null) ?? null,
    createdAt: iso(t.created_at)!,
    lastUsedAt: iso(t.last_used_at),
    expiresAt: iso(t.expires_at),
    revokedAt: iso(t.revoked_at),
    status,
  };
}

/** The calling account, as `/api/account` answers it. */
export function presentAccount(principal: Principal): AccountView {
  return {
    id: principal.userId,
    email: principal.email,
    role: principal.role,
    plan: principal.plan,
    limits: { requestsPerMinute: principal.rateLimit, wsConnections: principal.wsConnections },
    permissions: [...principal.permissions].sort(),
    authenticatedWith: principal.kind,
    createdAt: new Date(principal.createdAt).toISOString(),
  };
}
