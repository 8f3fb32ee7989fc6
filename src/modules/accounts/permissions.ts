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

/**
 * What a token may do: its owner's current permissions, narrowed by the token's own list when it has one.
 * Computed on every use, so demoting a user demotes their tokens at once.
 */
export function effectivePermissions(role: Role, narrowedTo: readonly string[] | null): Permission[] {
  const granted = rolePermissions[role];
  if (!narrowedTo) return [...granted];
  return granted.filter((p) => narrowedTo.includes(p));
}

export const plans = ['standard', 'pro'] as const;
export type Plan = (typeof plans)[number];
export const isPlan = (value: string): value is Plan => (plans as readonly string[]).includes(value);
