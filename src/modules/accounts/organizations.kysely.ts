import type { Kysely, Selectable } from 'kysely';
import { affected } from './affected-rows.ts';
import type { OrgAccess } from './principal.ts';
import type { OrganizationsStore } from './repository.ts';
import type { AccountsTables, InvitationsTable, OrganizationsTable } from './tables.ts';

const orgRow = (row: Selectable<OrganizationsTable>): OrganizationsTable => ({
  ...row,
  created_at: Number(row.created_at),
});

/** The organizations part of the accounts store, on PGlite and PostgreSQL. */
export function createKyselyOrganizationsStore(db: Kysely<AccountsTables>): OrganizationsStore {
  const accessQuery = () =>
    db
      .selectFrom('memberships')
      .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
      .selectAll('organizations')
      .select('memberships.role as member_role');
  const toAccess = ({ member_role, ...org }: OrganizationsTable & { member_role: string }): OrgAccess => ({
    org: orgRow(org),
    role: member_role as OrgAccess['role'],
  });
  return {
    findOrganization: async (id) => {
      const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
      return row && orgRow(row);
    },
    insertOrganization: (org, ownerId) =>
      db.transaction().execute(async (tx) => {
        await tx.insertInto('organizations').values(org).execute();
        await tx
          .insertInto('memberships')
          .values({ org_id: org.id, user_id: ownerId, role: 'owner', created_at: org.created_at })
          .execute();
      }),
    updateOrganization: async (id, patch) => {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable('organizations').set(patch).where('id', '=', id).execute();
    },
    findMembership: async (orgId, userId) => {
      const row = await accessQuery()
        .where('memberships.org_id', '=', orgId)
        .where('memberships.user_id', '=', userId)
        .executeTakeFirst();
      return row && toAccess(row);
    },
    listMemberships: async (userId) => {
      const rows = await accessQuery()
        .where('memberships.user_id', '=', userId)
        .orderBy('organizations.personal', 'desc')
        .orderBy('organizations.created_at')
        .orderBy('organizations.id')
        .execute();
      return rows.map(toAccess);
    },
    listMembers: async (orgId) => {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['memberships.user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
        .where('memberships.org_id', '=', orgId)
        .orderBy('memberships.created_at')
        .orderBy('memberships.user_id')
        .execute();
      return rows.map((r) => ({
        userId: r.user_id,
        email: r.email,
        role: r.role,
        createdAt: Number(r.created_at),
      }));
    },
    setMemberRole: async (orgId, userId, role) => {
      await db
        .updateTable('memberships')
        .set({ role })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
    },
    deleteMembership: async (orgId, userId) => {
      const result = await db
        .deleteFrom('memberships')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return affected(result) > 0;
    },
    countOwners: async (orgId) => {
      const row = await db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    transferOwnership: (orgId, from, to) =>
      db.transaction().execute(async (tx) => {
        await tx
          .updateTable('memberships')
          .set({ role: 'owner' })
          .where('org_id', '=', orgId)
          .where('user_id', '=', to)
          .execute();
        await tx
          .updateTable('memberships')
          .set({ role: 'admin' })
          .where('org_id', '=', orgId)
          .where('user_id', '=', from)
          .execute();
      }),
    revokeMemberTokens: async (orgId, userId, at) => {
      const rows = await db
        .updateTable('api_tokens')
        .set({ revoked_at: at })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('token_hash')
        .execute();
      return rows.map((r) => r.token_hash);
    },
    insertInvitation: async (invitation) => {
      await db.insertInto('invitations').values(invitation).execute();
    },
    findInvitationByHash: async (hash) => {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      return row && invitationRow(row);
    },
    listInvitations: async (orgId) => {
      const rows = await db
        .selectFrom('invitations')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('accepted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(invitationRow);
    },
    deleteInvitation: async (orgId, id) => {
      const result = await db
        .deleteFrom('invitations')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return affected(result) > 0;
    },
    acceptInvitation: (id, membership) =>
      db.transaction().execute(async (tx) => {
        const result = await tx
          .updateTable('invitations')
          .set({ accepted_at: membership.created_at, accepted_by: membership.user_id })
          .where('id', '=', id)
          .where('accepted_at', 'is', null)
          .executeTakeFirst();
        if (affected(result) === 0) return false;
        await tx.insertInto('memberships').values(membership).execute();
        return true;
      }),
    countActiveOrgTokens: async (orgId, now) => {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('grant_id', 'is', null)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

const invitationRow = (row: Selectable<InvitationsTable>): InvitationsTable => ({
  ...row,
  created_at: Number(row.created_at),
  expires_at: Number(row.expires_at),
  accepted_at: row.accepted_at === null ? null : Number(row.accepted_at),
});
