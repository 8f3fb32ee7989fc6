import type { SignInChallenge, TwoFactorRepository } from './repository.ts';
import type { RecoveryCodesTable, TwoFactorTable } from './tables.ts';

/** In-memory twin of the two-factor store (two-factor.kysely.ts). */
export function createMemoryTwoFactorRepository(): TwoFactorRepository {
  const secrets = new Map<string, TwoFactorTable>();
  const codes = new Map<string, RecoveryCodesTable[]>();
  const challenges = new Map<string, SignInChallenge>();
  return {
    async find(userId) {
      const row = secrets.get(userId);
      return row && { ...row };
    },
    async putPending(row) {
      if (secrets.get(row.user_id)?.confirmed_at != null) return false;
      secrets.set(row.user_id, { ...row, confirmed_at: null, last_step: null });
      return true;
    },
    async confirm(userId, at, step, codeHashes) {
      const row = secrets.get(userId);
      if (!row || row.confirmed_at !== null) return false;
      Object.assign(row, { confirmed_at: at, last_step: step });
      codes.set(
        userId,
        codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })),
      );
      return true;
    },
    async advanceStep(userId, step) {
      const row = secrets.get(userId);
      if (!row || (row.last_step !== null && row.last_step >= step)) return false;
      row.last_step = step;
      return true;
    },
    async useRecoveryCode(userId, codeHash, at) {
      const code = codes.get(userId)?.find((c) => c.code_hash === codeHash && c.used_at === null);
      if (!code) return false;
      code.used_at = at;
      return true;
    },
    async countUnusedRecoveryCodes(userId) {
      return (codes.get(userId) ?? []).filter((c) => c.used_at === null).length;
    },
    async remove(userId) {
      secrets.delete(userId);
      codes.delete(userId);
    },
    async insertChallenge(idHash, challenge, now) {
      for (const [key, c] of challenges)
        if (c.userId === challenge.userId && c.expiresAt <= now) challenges.delete(key);
      challenges.set(idHash, { ...challenge, tries: 0 });
    },
    async findChallenge(idHash) {
      const found = challenges.get(idHash);
      return found && { ...found };
    },
    async failChallenge(idHash) {
      const found = challenges.get(idHash);
      if (!found) return Number.POSITIVE_INFINITY;
      return ++found.tries;
    },
    async deleteChallenge(idHash) {
      challenges.delete(idHash);
    },
  };
}
