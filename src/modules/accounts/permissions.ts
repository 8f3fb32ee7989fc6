/** Permissions are verbs on areas; a role is a fixed set of them. Routes declare the one they need. */
export const permissions = [
  'market:read',
  'onchain:read',
  'onchain:write',
  'predictions:read',
  'alerts:read',
  'alerts:write',
  'portfolio:read',
  'portfolio:write',
  'account:read',
  'users:manage',
] as const;
export type Permission = (typeof permissions)[number];

export const roles = ['viewer', 'member', 'admin'] as const;
export type Role = (typeof roles)[number];

const viewer: Permission[] = [
  'market:read',
  'onchain:read',
  'predictions:read',
  'alerts:read',
  'portfolio:read',
  'account:read',
];
const member: Permission[] = [...viewer, 'alerts:write', 'portfolio:write', 'onchain:write'];
const admin: Permission[] = [...member, 'users:manage'];

export const rolePermissions: Readonly<Record<Role, readonly Permission[]>> = { viewer, member, admin };

export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);
export const isPermission = (value: string): value is Permission =>
  (permissions as readonly string[]).includes(value);

/** A member's role in an organization (docs/organizations.md). */
export const orgRoles = ['owner', 'admin', 'member', 'viewer'] as const;
export type OrgRole = (typeof orgRoles)[number];
export const isOrgRole = (value: string): value is OrgRole => (orgRoles as readonly string[]).includes(value);

/** Owners and admins also manage the organization (members, invitations, settings); data rights are a member's. */
const orgRolePermissions: Readonly<Record<OrgRole, readonly Permission[]>> = {
  owner: member,
  admin: member,
  member,
  viewer,
};
export const managesOrganization = (role: OrgRole): boolean => role === 'owner' || role === 'admin';

/**
 * What a user may do in an organization: their account role's permissions capped by their role there. The
 * server-wide `users:manage` (operator endpoints) comes from the account role alone.
 */
export function permissionsIn(accountRole: Role, orgRole: OrgRole): Permission[] {
  const inOrg = orgRolePermissions[orgRole] ?? viewer;
  return (rolePermissions[accountRole] ?? viewer).filter((p) => p === 'users:manage' || inOrg.includes(p));
}

/**
 * What a token may do: its issuer's current permissions (in the token's organization), narrowed by the
 * token's own list when it has one. Computed on every use, so demoting a member demotes their tokens at once.
 */
export function effectivePermissions(
  granted: readonly Permission[],
  narrowedTo: readonly string[] | null,
): Permission[] {
  if (!narrowedTo) return [...granted];
  return granted.filter((p) => narrowedTo.includes(p));
}

export const plans = ['standard', 'pro'] as const;
export type Plan = (typeof plans)[number];
export const isPlan = (value: string): value is Plan => (plans as readonly string[]).includes(value);
