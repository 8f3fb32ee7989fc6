import type { Kysely } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { OAuthRepository } from './repository.ts';
import type { OAuthTables } from './tables.ts';

const json = (list: readonly string[]) => JSON.stringify(list);
/** Thrown inside a transaction to roll it back when the code was used already. */
const notRedeemed = new Error('authorization code used already');

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
    redeemCode: (codeHash, at, grant, refresh) =>
      db
        .transaction()
        .execute(async (tx) => {
          await tx
            .insertInto('oauth_grants')
            .values({ ...grant, scopes: json(grant.scopes) })
            .execute();
          const used = await tx
            .updateTable('oauth_codes')
            .set({ used_at: at, grant_id: grant.id })
            .where('code_hash', '=', codeHash)
            .where('used_at', 'is', null)
            .executeTakeFirst();
          if (Number(used.numUpdatedRows) === 0) throw notRedeemed;
          await tx.insertInto('oauth_refresh_tokens').values(refresh).execute();
          return true;
        })
        .catch((error: unknown) => {
          if (error === notRedeemed) return false;
          throw error;
        }),
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
    clientsOfGrants: async (ids) => {
      if (!ids.length) return [];
      return db
        .selectFrom('oauth_grants')
        .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
        .select([
          'oauth_grants.id as grant_id',
          'oauth_clients.id as client_id',
          'oauth_clients.name as client_name',
        ])
        .where('oauth_grants.id', 'in', [...ids])
        .execute();
    },
    deleteExpired: (before, term) =>
      db.transaction().execute(async (tx) => {
        await assertLeaderTerm(tx, term);
        const codes = await tx.deleteFrom('oauth_codes').where('expires_at', '<', before).executeTakeFirst();
        const refresh = await tx
          .deleteFrom('oauth_refresh_tokens')
          .where('expires_at', '<', before)
          .executeTakeFirst();
        const grants = await tx
          .deleteFrom('oauth_grants')
          .where((eb) =>
            eb.or([
              eb('revoked_at', '<', before),
              eb.and([
                eb('created_at', '<', before),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('oauth_refresh_tokens')
                      .select('oauth_refresh_tokens.grant_id')
                      .whereRef('oauth_refresh_tokens.grant_id', '=', 'oauth_grants.id'),
                  ),
                ),
              ]),
            ]),
          )
          .executeTakeFirst();
        return {
          codes: Number(codes.numDeletedRows),
          refreshTokens: Number(refresh.numDeletedRows),
          grants: Number(grants.numDeletedRows),
        };
      }),
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
    rotateRefreshToken: (hash, at, next) =>
      db.transaction().execute(async (tx) => {
        const used = await tx
          .updateTable('oauth_refresh_tokens')
          .set({ used_at: at })
          .where('token_hash', '=', hash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 0) return false;
        await tx.insertInto('oauth_refresh_tokens').values(next).execute();
        return true;
      }),
  };
}
