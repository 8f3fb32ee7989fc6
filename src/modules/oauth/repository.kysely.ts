import type { Kysely } from 'kysely';
import type { OAuthRepository } from './repository.ts';
import type { OAuthTables } from './tables.ts';

const json = (list: readonly string[]) => JSON.stringify(list);

export function createKyselyOAuthRepository(db: Kysely<OAuthTables>): OAuthRepository {
  return {
    insertClient: async (client) => {
      await db
        .insertInto('oauth_clients')
        .values({ ...client, redirect_uris: json(client.redirect_uris) })
        .execute();
    },
    findClient: (id) => db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst(),
    listClients: (ownerId) =>
      db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    listAllClients: () =>
      db
        .selectFrom('oauth_clients')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    deleteClient: async (id) => {
      await db.deleteFrom('oauth_clients').where('id', '=', id).execute();
    },
    insertCode: async (code) => {
      await db
        .insertInto('oauth_codes')
        .values({ ...code, scopes: json(code.scopes) })
        .execute();
    },
    findCode: (hash) =>
      db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst(),
    useCode: async (hash, at) => {
      const result = await db
        .updateTable('oauth_codes')
        .set({ used_at: at })
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    insertGrant: async (grant, refresh, codeHash) => {
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('oauth_grants')
          .values({ ...grant, scopes: json(grant.scopes) })
          .execute();
        await tx.insertInto('oauth_refresh_tokens').values(refresh).execute();
        await tx
          .updateTable('oauth_codes')
          .set({ grant_id: grant.id })
          .where('code_hash', '=', codeHash)
          .execute();
      });
    },
    findGrant: (id) => db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst(),
    listGrants: (userId) =>
      db
        .selectFrom('oauth_grants')
        .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
        .selectAll('oauth_grants')
        .select('oauth_clients.name as client_name')
        .where('oauth_grants.user_id', '=', userId)
        .where('oauth_grants.revoked_at', 'is', null)
        .orderBy('oauth_grants.created_at', 'desc')
        .orderBy('oauth_grants.id', 'desc')
        .execute(),
    listClientGrants: (clientId) =>
      db
        .selectFrom('oauth_grants')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .execute(),
    revokeGrant: async (id, at, reason) => {
      const result = await db
        .updateTable('oauth_grants')
        .set({ revoked_at: at, revoked_reason: reason })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    findRefreshToken: (hash) =>
      db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst(),
    useRefreshToken: async (hash, at) => {
      const result = await db
        .updateTable('oauth_refresh_tokens')
        .set({ used_at: at })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    insertRefreshToken: async (token) => {
      await db.insertInto('oauth_refresh_tokens').values(token).execute();
    },
  };
}
