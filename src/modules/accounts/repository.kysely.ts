import type { Kysely, Selectable } from 'kysely';
import type { OrgAccess } from './principal.ts';
import type { AccountsRepository, OrganizationsStore, TwoFactorRepository } from './repository.ts';
import type { AccountsTables, InvitationsTable, OrganizationsTable, UsersTable } from './tables.ts';

/** A user's personal organization: same id, plan and override as the user. */
const personalOrganization = (user: UsersTable): OrganizationsTable => ({
  id: user.id,
  name: user.email,
  plan: user.plan,
  rate_limit_override: user.rate_limit_override,
  require_2fa: false,
  personal: true,
  created_at: user.created_at,
});

const orgRow = (row: Selectable<OrganizationsTable>): OrganizationsTable => ({
  ...row,
  created_at: Number(row.created_at),
});

async function insertUserAndOrganization(db: Kysely<AccountsTables>, user: UsersTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
  await db.insertInto('organizations').values(personalOrganization(user)).execute();
  await db
    .insertInto('memberships')
    .values({ org_id: user.id, user_id: user.id, role: 'owner', created_at: user.created_at })
    .execute();
}

export function createKyselyAccountsRepository(db: Kysely<AccountsTables>): AccountsRepository {
  const orgs = createKyselyOrganizationsStore(db);
  return {
    ...orgs,
    countUsers: async () => {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    insertUser: (user) => db.transaction().execute((tx) => insertUserAndOrganization(tx, user)),
    findUserByEmail: (email) =>
      db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),
    findUserById: (id) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    updateUser: async (id, patch) => {
      // An empty SET is not SQL; nothing to change is a no-op, as in the memory twin.
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set(patch).where('id', '=', id).execute();
        const { plan, rate_limit_override } = patch;
        if (plan !== undefined || rate_limit_override !== undefined)
          await tx
            .updateTable('organizations')
            .set({ plan, rate_limit_override })
            .where('id', '=', id)
            .where('personal', '=', true)
            .execute();
      });
    },
    insertToken: async (token) => {
      await db
        .insertInto('api_tokens')
        .values({
          ...token,
          permissions: token.permissions ? JSON.stringify(token.permissions) : null,
        })
        .execute();
    },
    findTokenByHash: async (hash) => {
      const token = await db
        .selectFrom('api_tokens')
        .selectAll()
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      if (!token) return undefined;
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', token.user_id)
        .executeTakeFirst();
      return user ? { token, user, access: await orgs.findMembership(token.org_id, user.id) } : undefined;
    },
    findToken: (id) => db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst(),
    listTokens: (userId, orgId) =>
      db
        .selectFrom('api_tokens')
        .selectAll()
        .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
        .$if(orgId !== undefined, (q) => q.where('org_id', '=', orgId!))
        .where('grant_id', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    grantsOfTokens: async (orgId, ids) => {
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('api_tokens')
        .select(['id', 'grant_id'])
        .where('org_id', '=', orgId)
        .where('id', 'in', [...ids])
        .where('grant_id', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: r.id, grant_id: r.grant_id! }));
    },
    listTokensPage: (userId, limit, after, orgId) => {
      let query = db
        .selectFrom('api_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .$if(orgId !== undefined, (q) => q.where('org_id', '=', orgId!))
        .where('grant_id', 'is', null);
      if (after)
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
          ]),
        );
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    countActiveTokens: async (userId, now) => {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('grant_id', 'is', null)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    revokeToken: async (id, at, rotatedTo) => {
      const result = await db
        .updateTable('api_tokens')
        .set({ revoked_at: at, rotated_to: rotatedTo ?? null })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    revokeGrantTokens: async (grantId, at) => {
      const rows = await db
        .updateTable('api_tokens')
        .set({ revoked_at: at })
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .returning('token_hash')
        .execute();
      return rows.map((row) => row.token_hash);
    },
    touchToken: async (id, at) => {
      await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
    insertSession: async (session) => {
      await db.insertInto('sessions').values(session).execute();
    },
    findSession: async (idHash) => {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select('sessions.expires_at as session_expires_at')
        .where('sessions.id_hash', '=', idHash)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_expires_at, ...user } = row;
      return { user, expires_at: session_expires_at };
    },
    deleteSession: async (idHash) => {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },
    pruneSessions: async (userId, now, keep) => {
      await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
      const newest = db
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id_hash', 'desc')
        .limit(keep);
      await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('id_hash', 'not in', newest)
        .execute();
    },
    findUserByIdentity: (issuer, subject) =>
      db
        .selectFrom('user_identities')
        .innerJoin('users', 'users.id', 'user_identities.user_id')
        .selectAll('users')
        .where('user_identities.issuer', '=', issuer)
        .where('user_identities.subject', '=', subject)
        .executeTakeFirst(),
    insertIdentity: async (identity) => {
      await db.insertInto('user_identities').values(identity).execute();
    },
    insertUserWithIdentity: async (user, identity) => {
      await db.transaction().execute(async (tx) => {
        await insertUserAndOrganization(tx, user);
        await tx.insertInto('user_identities').values(identity).execute();
      });
    },
    touchIdentity: async (issuer, subject, email, at) => {
      await db
        .updateTable('user_identities')
        .set({ email, last_sign_in_at: at })
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .execute();
    },
  };
}

/** The organizations part of the accounts store, on PGlite and PostgreSQL. */
function createKyselyOrganizationsStore(db: Kysely<AccountsTables>): OrganizationsStore {
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

const affected = (result: {
  numUpdatedRows?: bigint;
  numDeletedRows?: bigint;
  numInsertedOrUpdatedRows?: bigint;
}) => Number(result.numUpdatedRows ?? result.numDeletedRows ?? result.numInsertedOrUpdatedRows ?? 0);

export function createKyselyTwoFactorRepository(db: Kysely<AccountsTables>): TwoFactorRepository {
  return {
    find: async (userId) => {
      const row = await db
        .selectFrom('two_factor')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          ...row,
          created_at: Number(row.created_at),
          confirmed_at: row.confirmed_at === null ? null : Number(row.confirmed_at),
          last_step: row.last_step === null ? null : Number(row.last_step),
        }
      );
    },
    putPending: async (row) => {
      const result = await db
        .insertInto('two_factor')
        .values({ ...row, confirmed_at: null, last_step: null })
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet({ secret_sealed: row.secret_sealed, created_at: row.created_at })
            .where('two_factor.confirmed_at', 'is', null),
        )
        .executeTakeFirst();
      return affected(result) > 0;
    },
    confirm: (userId, at, step, codeHashes) =>
      db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('two_factor')
          .set({ confirmed_at: at, last_step: step })
          .where('user_id', '=', userId)
          .where('confirmed_at', 'is', null)
          .executeTakeFirst();
        if (affected(result) === 0) return false;
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('recovery_codes')
          .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
        return true;
      }),
    advanceStep: async (userId, step) => {
      const result = await db
        .updateTable('two_factor')
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return affected(result) > 0;
    },
    useRecoveryCode: async (userId, codeHash, at) => {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return affected(result) > 0;
    },
    countUnusedRecoveryCodes: async (userId) => {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    remove: (userId) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      }),
    insertChallenge: async (idHash, c, now) => {
      await db
        .deleteFrom('sign_in_challenges')
        .where('user_id', '=', c.userId)
        .where('expires_at', '<=', now)
        .execute();
      await db
        .insertInto('sign_in_challenges')
        .values({ id_hash: idHash, user_id: c.userId, purpose: c.purpose, expires_at: c.expiresAt })
        .execute();
    },
    findChallenge: async (idHash) => {
      const row = await db
        .selectFrom('sign_in_challenges')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return (
        row && {
          userId: row.user_id,
          purpose: row.purpose,
          expiresAt: Number(row.expires_at),
          tries: Number(row.tries),
        }
      );
    },
    failChallenge: async (idHash) => {
      const row = await db
        .updateTable('sign_in_challenges')
        .set((eb) => ({ tries: eb('tries', '+', 1) }))
        .where('id_hash', '=', idHash)
        .returning('tries')
        .executeTakeFirst();
      return row ? Number(row.tries) : Number.POSITIVE_INFINITY;
    },
    deleteChallenge: async (idHash) => {
      await db.deleteFrom('sign_in_challenges').where('id_hash', '=', idHash).execute();
    },
  };
}
