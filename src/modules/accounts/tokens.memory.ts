import { duplicateKey, missingUser } from './constraint-violation.ts';
import type { OrgAccess } from './principal.ts';
import type { TokensStore } from './repository.ts';
import type { ApiToken, UsersTable } from './tables.ts';

/** Tokens the owner made and manages; OAuth access tokens are listed and revoked through their grant. */
export const isOwnToken = (token: ApiToken) => token.grant_id === null;

export const isActive = (token: ApiToken, now: number) =>
  token.revoked_at === null && (token.expires_at === null || token.expires_at > now);

const newestFirst = (a: ApiToken, b: ApiToken) =>
  b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The tokens part of the in-memory twin, over the twin's users, tokens and memberships. */
export function createMemoryTokensStore(
  users: Map<string, UsersTable>,
  tokens: Map<string, ApiToken>,
  findMembership: (orgId: string, userId: string) => Promise<OrgAccess | undefined>,
): TokensStore {
  const tokenWithHash = (hash: string) => [...tokens.values()].find((t) => t.token_hash === hash);
  return {
    async insertToken(token) {
      if (tokens.has(token.id)) throw duplicateKey('api_tokens_pkey');
      if (tokenWithHash(token.token_hash)) throw duplicateKey('api_tokens_token_hash_key');
      if (!users.has(token.user_id)) throw missingUser('api_tokens');
      tokens.set(token.id, structuredClone(token));
    },
    async findTokenByHash(hash) {
      const token = tokenWithHash(hash);
      const user = token && users.get(token.user_id);
      if (!token || !user) return undefined;
      const access = await findMembership(token.org_id, token.user_id);
      return { token: structuredClone(token), user: structuredClone(user), access };
    },
    async findToken(id) {
      const token = tokens.get(id);
      return token && structuredClone(token);
    },
    async listTokens(userId, orgId) {
      return [...tokens.values()]
        .filter(
          (t) =>
            (userId === undefined || t.user_id === userId) &&
            isOwnToken(t) &&
            (orgId === undefined || t.org_id === orgId),
        )
        .sort(newestFirst)
        .map((t) => structuredClone(t));
    },
    async grantsOfTokens(orgId, ids) {
      const out: Array<{ id: string; grant_id: string }> = [];
      for (const id of ids) {
        const t = tokens.get(id);
        if (t && t.org_id === orgId && t.grant_id !== null) out.push({ id, grant_id: t.grant_id });
      }
      return out;
    },
    async listTokensPage(userId, limit, after, orgId) {
      return [...tokens.values()]
        .filter((t) => t.user_id === userId && isOwnToken(t) && (orgId === undefined || t.org_id === orgId))
        .sort(newestFirst)
        .filter(
          (t) =>
            !after || t.created_at < after.createdAt || (t.created_at === after.createdAt && t.id < after.id),
        )
        .slice(0, limit)
        .map((t) => structuredClone(t));
    },
    async countActiveTokens(userId, now) {
      return [...tokens.values()].filter((t) => t.user_id === userId && isOwnToken(t) && isActive(t, now))
        .length;
    },
    async revokeToken(id, at, rotatedTo) {
      const token = tokens.get(id);
      if (!token || token.revoked_at !== null) return false;
      token.revoked_at = at;
      token.rotated_to = rotatedTo ?? null;
      return true;
    },
    async revokeGrantTokens(grantId, at) {
      const hashes: string[] = [];
      for (const token of tokens.values())
        if (token.grant_id === grantId && token.revoked_at === null) {
          token.revoked_at = at;
          hashes.push(token.token_hash);
        }
      return hashes;
    },
    async touchToken(id, at) {
      const token = tokens.get(id);
      if (token) token.last_used_at = at;
    },
  };
}
