import { personalOrganization } from './personal-organization.ts';
import type { Kysely } from 'kysely';
import { createKyselyOrganizationsStore } from './organizations.kysely.ts';
import type { AccountsRepository } from './repository.ts';
import type { AccountsTables, UsersTable } from './tables.ts';

async function insertUserAndOrganization(db: Kysely<AccountsTables>, user: UsersTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
  await db.insertInto('organizations').values(personalOrganization(user)).execute();
  await db
    .insertInto('memberships')
    .values({ org_id: user.id, user_id: user.id, role: 'owner', created_at: user.created_at })
    .execute();
}

/**
 * The accounts store on PGlite and PostgreSQL: users, tokens, sessions and identities here, organizations from
 * organizations.kysely.ts.
 */
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
