import { personalOrganization } from './personal-organization.ts';
import { duplicateKey, missingUser } from './constraint-violation.ts';
import type { OrgAccess } from './principal.ts';
import type { OrganizationsStore } from './repository.ts';
import type {
  ApiToken,
  InvitationsTable,
  MembershipsTable,
  OrganizationsTable,
  UsersTable,
} from './tables.ts';
import { isActive, isOwnToken } from './tokens.memory.ts';

/** The organizations part of the in-memory twin, over the twin's users and tokens. */
export function createMemoryOrganizationsStore(
  users: Map<string, UsersTable>,
  tokens: Map<string, ApiToken>,
) {
  const orgs = new Map<string, OrganizationsTable>();
  const members = new Map<string, MembershipsTable>();
  const invitations = new Map<string, InvitationsTable>();
  const memberKey = (orgId: string, userId: string) => JSON.stringify([orgId, userId]);
  const accessOf = (m: MembershipsTable): OrgAccess => ({
    org: structuredClone(orgs.get(m.org_id)!),
    role: m.role as OrgAccess['role'],
  });
  const insertMember = (m: MembershipsTable) => {
    if (members.has(memberKey(m.org_id, m.user_id))) throw duplicateKey('memberships_pk');
    if (!users.has(m.user_id)) throw missingUser('memberships');
    members.set(memberKey(m.org_id, m.user_id), { ...m });
  };
  const store: OrganizationsStore = {
    async findOrganization(id) {
      const org = orgs.get(id);
      return org && { ...org };
    },
    async insertOrganization(org, ownerId) {
      if (orgs.has(org.id)) throw duplicateKey('organizations_pkey');
      if (!users.has(ownerId)) throw missingUser('memberships');
      orgs.set(org.id, { ...org });
      insertMember({ org_id: org.id, user_id: ownerId, role: 'owner', created_at: org.created_at });
    },
    async updateOrganization(id, patch) {
      const org = orgs.get(id);
      if (!org) return;
      for (const [column, value] of Object.entries(patch))
        if (value !== undefined) Object.assign(org, { [column]: value });
    },
    async findMembership(orgId, userId) {
      const m = members.get(memberKey(orgId, userId));
      return m && accessOf(m);
    },
    async listMemberships(userId) {
      return [...members.values()]
        .filter((m) => m.user_id === userId)
        .map(accessOf)
        .sort(
          (a, b) =>
            Number(b.org.personal) - Number(a.org.personal) ||
            a.org.created_at - b.org.created_at ||
            (a.org.id < b.org.id ? -1 : 1),
        );
    },
    async listMembers(orgId) {
      return [...members.values()]
        .filter((m) => m.org_id === orgId)
        .sort((a, b) => a.created_at - b.created_at || (a.user_id < b.user_id ? -1 : 1))
        .map((m) => ({
          userId: m.user_id,
          email: users.get(m.user_id)!.email,
          role: m.role,
          createdAt: m.created_at,
        }));
    },
    async setMemberRole(orgId, userId, role) {
      const m = members.get(memberKey(orgId, userId));
      if (m) m.role = role;
    },
    async deleteMembership(orgId, userId) {
      return members.delete(memberKey(orgId, userId));
    },
    async countOwners(orgId) {
      return [...members.values()].filter((m) => m.org_id === orgId && m.role === 'owner').length;
    },
    async transferOwnership(orgId, from, to) {
      const a = members.get(memberKey(orgId, from));
      const b = members.get(memberKey(orgId, to));
      if (!a || !b) return;
      a.role = 'admin';
      b.role = 'owner';
    },
    async revokeMemberTokens(orgId, userId, at) {
      const hashes: string[] = [];
      for (const t of tokens.values())
        if (t.org_id === orgId && t.user_id === userId && t.revoked_at === null) {
          t.revoked_at = at;
          hashes.push(t.token_hash);
        }
      return hashes;
    },
    async insertInvitation(invitation) {
      if (invitations.has(invitation.id)) throw duplicateKey('invitations_pkey');
      invitations.set(invitation.id, { ...invitation });
    },
    async findInvitationByHash(hash) {
      const found = [...invitations.values()].find((i) => i.token_hash === hash);
      return found && { ...found };
    },
    async listInvitations(orgId) {
      return [...invitations.values()]
        .filter((i) => i.org_id === orgId && i.accepted_at === null)
        .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
        .map((i) => ({ ...i }));
    },
    async deleteInvitation(orgId, id) {
      const found = invitations.get(id);
      if (!found || found.org_id !== orgId) return false;
      return invitations.delete(id);
    },
    async acceptInvitation(id, membership) {
      const found = invitations.get(id);
      if (!found || found.accepted_at !== null) return false;
      insertMember(membership);
      found.accepted_at = membership.created_at;
      found.accepted_by = membership.user_id;
      return true;
    },
    async countActiveOrgTokens(orgId, now) {
      return [...tokens.values()].filter((t) => t.org_id === orgId && isOwnToken(t) && isActive(t, now))
        .length;
    },
  };
  return {
    store,
    addPersonal(user: UsersTable) {
      orgs.set(user.id, personalOrganization(user));
      members.set(memberKey(user.id, user.id), {
        org_id: user.id,
        user_id: user.id,
        role: 'owner',
        created_at: user.created_at,
      });
    },
  };
}
