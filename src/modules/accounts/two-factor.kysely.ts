import type { Kysely } from 'kysely';
import { affected } from './affected-rows.ts';
import type { TwoFactorRepository } from './repository.ts';
import type { AccountsTables } from './tables.ts';

/** The two-factor store on PGlite and PostgreSQL: TOTP secrets, recovery codes, sign-in challenges. */
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
