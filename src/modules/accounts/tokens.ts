import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { type Permission, type Role, isPermission, permissionsIn } from './permissions.ts';
import { type TokenView, presentToken } from './present.ts';
import type { AccountsRepository } from './repository.ts';
import type { ApiToken } from './tables.ts';
import { decodeTokenCursor, encodeTokenCursor } from './token-cursor.ts';
import { candidateTokenHash, displayStart, generateToken, hashToken } from './token-format.ts';

export interface TokensDeps {
  repo: Pick<
    AccountsRepository,
    | 'findUserById'
    | 'insertToken'
    | 'findToken'
    | 'findTokenByHash'
    | 'listTokens'
    | 'grantsOfTokens'
    | 'listTokensPage'
    | 'countActiveTokens'
    | 'revokeToken'
    | 'revokeGrantTokens'
    | 'findMembership'
    | 'countActiveOrgTokens'
  >;
  /** Active tokens an account of this plan may have (undefined: no cap). */
  tokenCap(plan: string): number | undefined;
  clock: Clock;
  /** A token was revoked: it must be refused from its next request, here and on every replica. */
  revoked(tokenHash: string): void;
}

/** API tokens as their owners manage them: issue (narrowed to the owner's permissions), list, revoke, rotate. */
export function createTokens(deps: TokensDeps) {
  const { repo, clock } = deps;
  const tokenView = (t: ApiToken) => presentToken(t, clock.now());

  async function createToken(
    userId: string,
    input: {
      name: string;
      expiresAt?: number | null;
      permissions?: string[] | null;
      /** The organization the token acts in (default: the user's personal one). */
      orgId?: string;
    },
  ): Promise<{ token: string; view: TokenView }> {
    const user = await repo.findUserById(userId);
    if (!user) throw new AppError('not_found', 'user not found');
    const orgId = input.orgId ?? user.id;
    const access = await repo.findMembership(orgId, user.id);
    if (!access) throw new AppError('not_found', `no organization with id ${orgId}`);
    const name = input.name.trim();
    if (!name || name.length > 100)
      throw new AppError('validation_failed', 'name must have 1 to 100 characters', {
        errors: [{ pointer: '/body/name', message: 'must have 1 to 100 characters' }],
      });
    if (input.expiresAt != null && input.expiresAt <= clock.now())
      throw new AppError('validation_failed', 'expiry must be in the future', {
        errors: [{ pointer: '/body/expiresAt', message: 'must be in the future' }],
      });
    let narrowed: Permission[] | null = null;
    if (input.permissions) {
      const unknown = input.permissions.filter((p) => !isPermission(p));
      if (unknown.length)
        throw new AppError('validation_failed', `unknown permissions: ${unknown.join(', ')}`, {
          errors: unknown.map((p) => ({ pointer: '/body/permissions', message: `unknown permission ${p}` })),
        });
      const granted = permissionsIn(user.role as Role, access.role);
      const beyond = input.permissions.filter((p) => !granted.includes(p as Permission));
      if (beyond.length)
        throw new AppError(
          'forbidden',
          `a token cannot grant permissions its owner lacks: ${beyond.join(', ')}`,
        );
      narrowed = [...new Set(input.permissions as Permission[])];
    }
    const plan = access.org.plan;
    const cap = deps.tokenCap(plan);
    if (cap !== undefined && (await repo.countActiveOrgTokens(orgId, clock.now())) >= cap)
      throw new AppError(
        'token_limit_reached',
        `the ${plan} plan allows ${cap} active API tokens; revoke one (or let one expire) first`,
        { extra: { limit: cap } },
      );
    const token = generateToken();
    const row: ApiToken = {
      id: newId('tok'),
      user_id: user.id,
      org_id: orgId,
      name,
      token_hash: hashToken(token),
      start: displayStart(token),
      permissions: narrowed,
      created_at: clock.now(),
      last_used_at: null,
      expires_at: input.expiresAt ?? null,
      revoked_at: null,
      rotated_to: null,
      grant_id: null,
    };
    await repo.insertToken(row);
    return { token, view: tokenView(row) };
  }

  /** The user's token in that organization (any of theirs without one). */
  async function ownedToken(userId: string, tokenId: string, orgId?: string): Promise<ApiToken> {
    const token = await repo.findToken(tokenId);
    // Another account's (or organization's) token answers exactly like a missing one: no way to probe ids.
    if (!token || token.user_id !== userId || (orgId !== undefined && token.org_id !== orgId))
      throw new AppError('not_found', `no token with id ${tokenId}`);
    return token;
  }

  async function revokeToken(userId: string | null, tokenId: string, orgId?: string): Promise<TokenView> {
    const token = userId ? await ownedToken(userId, tokenId, orgId) : await repo.findToken(tokenId);
    if (!token) throw new AppError('not_found', `no token with id ${tokenId}`);
    if (token.revoked_at === null) {
      await repo.revokeToken(token.id, clock.now());
      deps.revoked(token.token_hash);
    }
    const fresh = await repo.findToken(token.id);
    return tokenView(fresh!);
  }

  /**
   * Issues a replacement with the same name, permissions and expiry, and revokes the old one at once. The
   * replacement never outlives the original: an expired token is refused (its owner creates a new one).
   */
  async function rotateToken(userId: string, tokenId: string, orgId?: string) {
    const old = await ownedToken(userId, tokenId, orgId);
    if (old.revoked_at !== null) throw new AppError('conflict', 'a revoked token cannot be rotated');
    if (old.expires_at !== null && old.expires_at <= clock.now())
      throw new AppError(
        'token_expired',
        `token ${old.id} expired at ${new Date(old.expires_at).toISOString()}; an expired token cannot be rotated, create a new one`,
      );
    const token = generateToken();
    const row: ApiToken = {
      ...old,
      id: newId('tok'),
      token_hash: hashToken(token),
      start: displayStart(token),
      created_at: clock.now(),
      last_used_at: null,
      expires_at: old.expires_at,
      revoked_at: null,
      rotated_to: null,
    };
    await repo.insertToken(row);
    await repo.revokeToken(old.id, clock.now(), row.id);
    deps.revoked(old.token_hash);
    return { token, view: tokenView(row) };
  }

  /**
   * An OAuth access token: an API token tied to its grant, with the granted scopes as its permissions and a
   * short lifetime, so it is checked on the same path (and at the same cost) as every other token.
   */
  async function issueGrantToken(input: {
    userId: string;
    grantId: string;
    name: string;
    permissions: readonly Permission[];
    expiresAt: number;
  }): Promise<{ token: string; expiresAt: number }> {
    const token = generateToken();
    await repo.insertToken({
      id: newId('tok'),
      user_id: input.userId,
      // An OAuth app acts in its user's personal organization.
      org_id: input.userId,
      name: input.name,
      token_hash: hashToken(token),
      start: displayStart(token),
      permissions: [...input.permissions],
      created_at: clock.now(),
      last_used_at: null,
      expires_at: input.expiresAt,
      revoked_at: null,
      rotated_to: null,
      grant_id: input.grantId,
    });
    return { token, expiresAt: input.expiresAt };
  }

  /** Revokes every access token of an OAuth grant; each is refused from its next request, on every replica. */
  async function revokeGrantTokens(grantId: string): Promise<number> {
    const hashes = await repo.revokeGrantTokens(grantId, clock.now());
    for (const hash of hashes) deps.revoked(hash);
    return hashes.length;
  }

  /** The OAuth grant of an access token (undefined for any other text). */
  async function grantOfToken(secret: string): Promise<string | undefined> {
    const hash = candidateTokenHash(secret);
    if (hash === undefined) return undefined;
    return (await repo.findTokenByHash(hash))?.token.grant_id ?? undefined;
  }

  return {
    createToken,
    issueGrantToken,
    revokeGrantTokens,
    grantOfToken,
    listTokens: async (userId: string | undefined, orgId?: string) =>
      (await repo.listTokens(userId, orgId)).map(tokenView),
    /** The OAuth grant of each of an organization's tokens `ids` that is an OAuth access token. */
    grantsOfTokens: async (orgId: string, ids: readonly string[]): Promise<Map<string, string>> =>
      new Map((await repo.grantsOfTokens(orgId, ids)).map((t) => [t.id, t.grant_id])),
    /** One page of the owner's tokens (in one organization), newest first; `nextCursor` is null on the last. */
    listTokensPage: async (userId: string, page: { limit: number; cursor?: string; orgId?: string }) => {
      const after = page.cursor === undefined ? undefined : decodeTokenCursor(page.cursor);
      const rows = await repo.listTokensPage(userId, page.limit + 1, after, page.orgId);
      const data = rows.slice(0, page.limit);
      return {
        data: data.map(tokenView),
        nextCursor: rows.length > page.limit ? encodeTokenCursor(data[data.length - 1]!) : null,
      };
    },
    countActiveTokens: (userId: string) => repo.countActiveTokens(userId, clock.now()),
    revokeToken,
    rotateToken,
    /** True while a cached principal for this token is still valid (used by the push channel's sweeps). */
    isTokenStillValid: async (tokenId: string) => {
      const token = await repo.findToken(tokenId);
      return (
        !!token && token.revoked_at === null && (token.expires_at === null || token.expires_at > clock.now())
      );
    },
  };
}
