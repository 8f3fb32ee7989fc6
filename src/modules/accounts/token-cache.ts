import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { type DebugLog, logAndIgnore } from '../../shared/log-and-ignore.ts';
import type { Principal, PrincipalOf } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import { hashToken, isWellFormedToken, tokenLength } from './token-format.ts';

interface CachedToken {
  principal: Principal;
  fetchedAt: number;
  lastUsedAt: number | null;
}

const lastUsedResolutionMs = 60_000;
const cacheTtlMs = 5_000;

export interface TokenCacheDeps {
  repo: Pick<AccountsRepository, 'findTokenByHash' | 'touchToken'>;
  clock: Clock;
  principalOf: PrincipalOf;
  /** Where a failed "last used" update is noted (debug: the bookkeeping is coarse and best effort). */
  log?: DebugLog;
}

/**
 * Token checks, the hot path of every request: resolved tokens are cached for a few seconds. A revocation or
 * a changed role or plan drops the entries (here, and through the bus on every other replica), so a revoked
 * token is refused on its next request.
 */
export function createTokenCache(deps: TokenCacheDeps) {
  const { repo, clock, principalOf } = deps;
  const cache = new Map<string, CachedToken>();
  // Bumped by every drop: a lookup that began before a drop must not cache what it read (it may predate the
  // change the drop announced), or a revocation heard on the bus could be undone for up to the cache's TTL.
  let drops = 0;

  /**
   * Resolves an API token to its principal; throws `invalid_token` for anything not currently valid.
   * Synchronous while the token's cache entry is fresh (every request but one a minute per token), so the
   * request hook adds no promise turn on the hot path; a promise only when the database must be asked.
   */
  function authenticateToken(secret: string): Principal | Promise<Principal> {
    // The cache is asked first: an entry means a stored token, whose shape and checksum were checked when it
    // was first seen. Anything else is checked before any storage work.
    if (secret.length !== tokenLength) throw new AppError('invalid_token', 'the token is malformed');
    const hash = hashToken(secret);
    const now = clock.now();
    const entry = cache.get(hash);
    if (entry && now - entry.fetchedAt <= cacheTtlMs) return admit(entry, now);
    if (!isWellFormedToken(secret)) throw new AppError('invalid_token', 'the token is malformed');
    const dropsBefore = drops;
    return repo.findTokenByHash(hash).then((found) => {
      if (!found) {
        cache.delete(hash);
        throw new AppError('invalid_token', 'the token is not known');
      }
      if (found.token.revoked_at !== null) throw new AppError('invalid_token', 'the token was revoked');
      const fresh = {
        principal: principalOf(found.user, found.token),
        fetchedAt: now,
        lastUsedAt: found.token.last_used_at,
      };
      if (drops === dropsBefore) cache.set(hash, fresh);
      return admit(fresh, now);
    });
  }

  /**
   * The principal of a token whose cache entry is fresh and valid, without storage and without counting a
   * failure; `undefined` otherwise (the caller then goes through `authenticateToken`).
   */
  function peekToken(secret: string): Principal | undefined {
    if (secret.length !== tokenLength) return undefined;
    const now = clock.now();
    const entry = cache.get(hashToken(secret));
    if (!entry || now - entry.fetchedAt > cacheTtlMs) return undefined;
    const expiresAt = entry.principal.tokenExpiresAt;
    return expiresAt != null && expiresAt <= now ? undefined : admit(entry, now);
  }

  function admit(entry: CachedToken, now: number): Principal {
    const expiresAt = entry.principal.tokenExpiresAt;
    if (expiresAt != null && expiresAt <= now) throw new AppError('invalid_token', 'the token has expired');
    if (entry.lastUsedAt === null || now - entry.lastUsedAt >= lastUsedResolutionMs) {
      entry.lastUsedAt = now;
      // Coarse "last used" bookkeeping must never slow or fail a request; a failed update is retried at the
      // next use after the resolution period, so a failure is noted at debug level only.
      repo
        .touchToken(entry.principal.tokenId!, now)
        .catch(logAndIgnore(deps.log ?? { debug() {} }, 'token last-used update failed', 'debug'));
    }
    return entry.principal;
  }

  return {
    authenticateToken,
    peekToken,
    /** Drops one token's entry (by its hash). */
    drop(tokenHash: string) {
      drops++;
      cache.delete(tokenHash);
    },
    /** Drops every entry of a user. */
    dropUser(userId: string) {
      drops++;
      for (const [hash, entry] of cache) if (entry.principal.userId === userId) cache.delete(hash);
    },
  };
}
