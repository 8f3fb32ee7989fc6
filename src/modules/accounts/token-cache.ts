import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { type DebugLog, logAndIgnore } from '../../shared/log-and-ignore.ts';
import type { Principal, PrincipalOf } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import { candidateTokenHash, isWellFormedToken } from './token-format.ts';

interface CachedToken {
  principal: Principal;
  fetchedAt: number;
  lastUsedAt: number | null;
}

const lastUsedResolutionMs = 60_000;
const cacheTtlMs = 5_000;
/**
 * A token in use is looked up again in the background once its entry is this old, so it never leaves the
 * cache while requests keep coming: without this, every request of a busy token that arrives while its
 * entry is being fetched again waits for storage (stalls of hundreds of ms under load measured in
 * docs/adr/0015-pglite-thread-and-token-cache.md).
 */
const refreshAheadMs = 4_000;

/** Refused: the organization requires two-factor sign-in of its members and this one has it off. */
export const twoFactorRequired = (orgId: string) =>
  new AppError(
    'forbidden',
    `organization ${orgId} requires two-factor sign-in; turn it on for your account (POST /api/account/two-factor) first`,
  );

export interface TokenCacheDeps {
  repo: Pick<AccountsRepository, 'findTokenByHash' | 'touchToken'>;
  clock: Clock;
  principalOf: PrincipalOf;
  /** Whether a user has two-factor sign-in on (asked only for an organization that requires it). */
  twoFactorOn?: (userId: string) => Promise<boolean>;
  /** Where a failed "last used" update is noted (debug: the bookkeeping is coarse and best effort). */
  log?: DebugLog;
}

/**
 * Token checks, the hot path of every request: resolved tokens are cached for a few seconds. A revocation or
 * a changed role or plan drops the entries (here, and through the bus on every other replica), so a revoked
 * token is refused on its next request. The cache's age limit is the safety net for a drop that was not
 * heard; a token in use is fetched again before it reaches it (refresh ahead), and requests that find no
 * entry at the same time share one storage lookup.
 */
export function createTokenCache(deps: TokenCacheDeps) {
  const { repo, clock, principalOf } = deps;
  const cache = new Map<string, CachedToken>();
  // Bumped by every drop: a lookup that began before a drop must not cache what it read (it may predate the
  // change the drop announced), or a revocation heard on the bus could be undone for up to the cache's TTL.
  let drops = 0;
  /** Lookups under way, by token hash: concurrent misses and refreshes share one. */
  const inFlight = new Map<string, Promise<CachedToken>>();

  /** Reads the token from storage and caches it; refuses (and forgets) a token unknown or revoked. */
  function lookup(hash: string): Promise<CachedToken> {
    const pending = inFlight.get(hash);
    if (pending) return pending;
    const dropsBefore = drops;
    const fetchedAt = clock.now();
    const work = repo
      .findTokenByHash(hash)
      .then(async (found) => {
        if (!found || found.token.revoked_at !== null) {
          cache.delete(hash);
          throw new AppError('invalid_token', found ? 'the token was revoked' : 'the token is not known');
        }
        if (!found.access) {
          cache.delete(hash);
          throw new AppError('invalid_token', "the token's issuer is no longer a member of its organization");
        }
        if (found.access.org.require_2fa && !(await deps.twoFactorOn?.(found.user.id))) {
          cache.delete(hash);
          throw twoFactorRequired(found.access.org.id);
        }
        const fresh = {
          principal: principalOf(found.user, found.access, found.token),
          fetchedAt,
          // The newer of the stored time and the one this process noted (its write may still be under way).
          lastUsedAt: Math.max(found.token.last_used_at ?? 0, cache.get(hash)?.lastUsedAt ?? 0) || null,
        };
        if (drops === dropsBefore) cache.set(hash, fresh);
        return fresh;
      })
      .finally(() => {
        if (inFlight.get(hash) === work) inFlight.delete(hash);
      });
    inFlight.set(hash, work);
    return work;
  }

  /** Starts a background lookup of an entry old enough; a failure leaves the entry to its age limit. */
  function refreshIfDue(hash: string, entry: CachedToken, now: number) {
    if (now - entry.fetchedAt < refreshAheadMs || inFlight.has(hash)) return;
    lookup(hash).catch(logAndIgnore(deps.log ?? { debug() {} }, 'token refresh ahead failed', 'debug'));
  }

  /**
   * Resolves an API token to its principal; throws `invalid_token` for anything not currently valid.
   * Synchronous while the token's cache entry is fresh (every request but one a minute per token), so the
   * request hook adds no promise turn on the hot path; a promise only when the database must be asked.
   */
  function authenticateToken(secret: string): Principal | Promise<Principal> {
    // The cache is asked first: an entry means a stored token, whose shape and checksum were checked when it
    // was first seen. Anything else is checked before any storage work.
    const hash = candidateTokenHash(secret);
    if (hash === undefined) throw new AppError('invalid_token', 'the token is malformed');
    const now = clock.now();
    const entry = cache.get(hash);
    if (entry && now - entry.fetchedAt <= cacheTtlMs) {
      refreshIfDue(hash, entry, now);
      return admit(entry, now);
    }
    if (!isWellFormedToken(secret)) throw new AppError('invalid_token', 'the token is malformed');
    return lookup(hash).then((fresh) => admit(fresh, clock.now()));
  }

  /**
   * The principal of a token, by its hash, whose cache entry is fresh and valid, without storage and without
   * counting a failure; `undefined` otherwise (the caller then goes through `authenticateToken`). The auth
   * plugin holds the hash per connection, so a repeated token is not hashed again here.
   */
  function peekTokenHash(hash: string): Principal | undefined {
    const now = clock.now();
    const entry = cache.get(hash);
    if (!entry || now - entry.fetchedAt > cacheTtlMs) return undefined;
    const expiresAt = entry.principal.tokenExpiresAt;
    if (expiresAt != null && expiresAt <= now) return undefined;
    refreshIfDue(hash, entry, now);
    return admit(entry, now);
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
    peekTokenHash,
    /** Drops one token's entry (by its hash). */
    drop(tokenHash: string) {
      drops++;
      cache.delete(tokenHash);
      // A lookup that began before the drop may have read what the drop announced changed: no request after
      // the drop may share it.
      inFlight.delete(tokenHash);
    },
    /** Drops every entry of an organization (its plan, override or two-factor rule changed). */
    dropOrg(orgId: string) {
      drops++;
      for (const [hash, entry] of cache) if (entry.principal.orgId === orgId) cache.delete(hash);
      inFlight.clear();
    },
    /** Drops every entry of a user. */
    dropUser(userId: string) {
      drops++;
      for (const [hash, entry] of cache) if (entry.principal.userId === userId) cache.delete(hash);
      inFlight.clear();
    },
  };
}
