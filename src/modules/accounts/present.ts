import type { OrgRole, Permission, Plan, Role } from './permissions.ts';
import type { OrgAccess, Principal } from './principal.ts';
import type { MemberRow } from './repository.ts';
import type { ApiToken, InvitationsTable } from './tables.ts';

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
  /** The organization the credentials act in, and the caller's role there. */
  organization: { id: string; role: OrgRole };
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
    organization: { id: principal.orgId, role: principal.orgRole },
    plan: principal.plan,
    limits: { requestsPerMinute: principal.rateLimit, wsConnections: principal.wsConnections },
    permissions: [...principal.permissions].sort(),
    authenticatedWith: principal.kind,
    createdAt: new Date(principal.createdAt).toISOString(),
  };
}

/** An organization as its members see it, with the caller's role in it. */
export interface OrganizationView {
  id: string;
  name: string;
  plan: Plan;
  personal: boolean;
  requireTwoFactor: boolean;
  role: OrgRole;
  createdAt: string;
}

export const presentOrganization = ({ org, role }: OrgAccess): OrganizationView => ({
  id: org.id,
  name: org.name,
  plan: org.plan as Plan,
  personal: org.personal,
  requireTwoFactor: org.require_2fa,
  role,
  createdAt: iso(org.created_at)!,
});

export interface MemberView {
  userId: string;
  email: string;
  role: OrgRole;
  joinedAt: string;
}

export const presentMember = (m: MemberRow): MemberView => ({
  userId: m.userId,
  email: m.email,
  role: m.role as OrgRole,
  joinedAt: iso(m.createdAt)!,
});

/** An invitation as its organization's managers list it: never the secret, never its hash. */
export interface InvitationView {
  id: string;
  organizationId: string;
  role: OrgRole;
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

export const presentInvitation = (i: InvitationsTable): InvitationView => ({
  id: i.id,
  organizationId: i.org_id,
  role: i.role as OrgRole,
  email: i.email,
  createdBy: i.created_by,
  createdAt: iso(i.created_at)!,
  expiresAt: iso(i.expires_at)!,
});
