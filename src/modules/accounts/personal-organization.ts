import type { OrganizationsTable, UsersTable } from './tables.ts';

/** A user's personal organization: same id, plan and override as the user. */
export const personalOrganization = (user: UsersTable): OrganizationsTable => ({
  id: user.id,
  name: user.email,
  plan: user.plan,
  rate_limit_override: user.rate_limit_override,
  require_2fa: false,
  personal: true,
  created_at: user.created_at,
});
