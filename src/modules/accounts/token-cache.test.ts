import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { type OrgAccess, createPrincipalOf } from './principal.ts';
import type { ApiToken, UsersTable } from './tables.ts';
import { createTokenCache } from './token-cache.ts';
import { generateToken, hashToken } from './token-format.ts';

const T0 = Date.UTC(2026, 0, 1);
const user: UsersTable = {
  id: 'usr_a',
  email: 'a@example.com',
  password_hash: null,
  role: 'member',
  plan: 'standard',
  rate_limit_override: null,
  created_at: T0,
};
const access: OrgAccess = {
  org: {
    id: user.id,
    name: user.email,
    plan: 'standard',
    rate_limit_override: null,
    require_2fa: false,
    personal: true,
    created_at: T0,
  },
  role: 'owner',
};
const principalOf = createPrincipalOf({
  standard: { rateLimit: 120, wsConnections: 5 },
  pro: { rateLimit: 1200, wsConnections: 50 },
});

/** A store whose lookups wait until the test answers them, counting each. */
function slowStore(secret: string) {
  const token: ApiToken = {
    id: 'tok_a',
    user_id: user.id,
    org_id: user.id,
    name: 'bot',
    token_hash: hashToken(secret),
    start: secret.slice(0, 10),
    permissions: null,
    created_at: T0,
    last_used_at: T0,
    expires_at: null,
    revoked_at: null,
    rotated_to: null,
    grant_id: null,
  };
  const waiting: Array<() => void> = [];
  let lookups = 0;
  return {
    token,
    lookups: () => lookups,
    /** Answers every lookup asked so far, then lets their continuations run. */
    answer: async () => {
      for (const go of waiting.splice(0)) go();
      await new Promise((r) => setImmediate(r));
    },
    repo: {
      findTokenByHash: (hash: string) => {
        lookups++;
        return new Promise<{ user: UsersTable; token: ApiToken; access: OrgAccess } | undefined>((resolve) =>
          waiting.push(() =>
            resolve(hash === token.token_hash ? { user, token: { ...token }, access } : undefined),
          ),
        );
      },
      touchToken: async () => {},
    },
  };
}

/** A cache holding one token, looked up once at T0. */
async function cachedToken() {
  const secret = generateToken();
  const store = slowStore(secret);
  const clock = manualClock(T0);
  const cache = createTokenCache({ repo: store.repo, clock, principalOf });
  const first = cache.authenticateToken(secret);
  await store.answer();
  await first;
  return { secret, store, clock, cache };
}

describe('token cache', () => {
  it('shares one storage lookup among the requests that find no entry at the same time', async () => {
    const secret = generateToken();
    const store = slowStore(secret);
    const cache = createTokenCache({ repo: store.repo, clock: manualClock(T0), principalOf });
    const asked = Array.from({ length: 50 }, () => cache.authenticateToken(secret));
    expect(store.lookups()).toBe(1);
    await store.answer();
    const principals = await Promise.all(asked);
    expect(new Set(principals.map((p) => p.userId))).toEqual(new Set([user.id]));
    // Now cached: answered without storage, synchronously.
    expect(cache.peekTokenHash(hashToken(secret))?.tokenId).toBe('tok_a');
    expect(store.lookups()).toBe(1);
  });

  it('fetches a token in use again before its entry expires, so it never leaves the cache', async () => {
    const { secret, store, clock, cache } = await cachedToken();
    clock.advance(3_900);
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    expect(store.lookups()).toBe(1);
    // Past the refresh point: still answered from the cache, and one background lookup starts (not one each).
    clock.advance(200);
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    expect(store.lookups()).toBe(2);
    await store.answer();
    // The refreshed entry is good for another five seconds from its lookup.
    clock.advance(4_500);
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    // Unused past the limit (no request to trigger a refresh): it is gone, and the next request asks storage.
    clock.advance(6_000);
    expect(cache.peekTokenHash(hashToken(secret))).toBeUndefined();
  });

  it('drops a token that a background lookup finds revoked', async () => {
    const { secret, store, clock, cache } = await cachedToken();
    store.token.revoked_at = T0 + 1;
    clock.advance(4_100);
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    await store.answer();
    expect(cache.peekTokenHash(hashToken(secret))).toBeUndefined();
    const again = expect(cache.authenticateToken(secret)).rejects.toMatchObject({
      code: 'invalid_token',
      message: 'the token was revoked',
    });
    await store.answer();
    await again;
  });

  it('never lets a request after a drop share a lookup that began before it', async () => {
    const secret = generateToken();
    const store = slowStore(secret);
    const cache = createTokenCache({ repo: store.repo, clock: manualClock(T0), principalOf });
    const before = cache.authenticateToken(secret);
    cache.drop(hashToken(secret));
    const after = cache.authenticateToken(secret);
    expect(store.lookups()).toBe(2);
    await store.answer();
    await Promise.all([before, after]);
    // The request after the drop made its own lookup, and that lookup's read is what is cached.
    expect(cache.peekTokenHash(hashToken(secret))).toBeDefined();
    expect(store.lookups()).toBe(2);
  });
});
