import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArgon2idHasher } from '../../src/modules/accounts/index.ts';
import { generateToken } from '../../src/modules/accounts/token-format.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

// On every backend: sessions, token expiry, rotation, revocation and last-used are accounts storage behaviour
// the permission matrix does not reach.
describe.each(dbKinds())('authentication, sessions and tokens on %s', (kind) => {
  let t: TestApp;
  let member: TestUser;
  beforeAll(async () => {
    // The real argon2id hasher: this suite is about passwords.
    t = await createTestApp({
      db: kind,
      container: { hasher: await createArgon2idHasher() },
      env: { MERIDIAN_AUTH_FAILURE_LIMIT: '1000' },
    });
    member = await t.user('member');
  });
  afterAll(() => t.close());

  const login = async (user: TestUser) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'meridian_session')!;
    return { cookie, header: { cookie: `meridian_session=${cookie.value}` } };
  };

  it('stores argon2id password hashes, never the password', async () => {
    const row = await t.container.accounts.findUserByEmail(member.email);
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(row?.password_hash).not.toContain(member.password);
  });

  it.each([
    ['missing', {}],
    ['not bearer', { authorization: 'Basic abc' }],
    ['malformed', { authorization: 'Bearer hello' }],
    ['unknown', { authorization: `Bearer ${generateToken()}` }],
  ])('refuses a %s token with 401 and WWW-Authenticate', async (_name, headers) => {
    const res = await t.app.inject({ url: '/api/account', headers });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="meridian"/);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it('refuses expired and revoked tokens', async () => {
    const { clock } = t.container;
    // Long enough for the first request to finish on a loaded machine before the token expires.
    const expiresAt = clock.now() + 1_500;
    const expiring = await t.container.accounts.createToken(member.id, { name: 'short', expiresAt });
    expect(
      (await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${expiring.token}` } }))
        .statusCode,
    ).toBe(200);
    await waitUntil(() => clock.now() >= expiresAt, 'the token to expire', 5_000);
    const expired = await t.app.inject({
      url: '/api/account',
      headers: { authorization: `Bearer ${expiring.token}` },
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toContain('expired');
  });

  it('signs in with an HttpOnly SameSite=Strict cookie and rejects a wrong password', async () => {
    const { cookie } = await login(member);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: member.email, password: 'nope-nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid_credentials');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'x@y.zz', password: 'nope-nope-nope' },
    });
    expect(unknown.json().detail).toBe(wrong.json().detail);
  });

  it('manages tokens with a session: create (secret once), list, rotate, revoke', async () => {
    const { header } = await login(member);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: header,
      payload: { name: 'bot', expiresIn: '30d', permissions: ['market:read'] },
    });
    expect(created.statusCode).toBe(201);
    const { token, details } = created.json();
    expect(token).toMatch(/^mrd_/);
    expect(details.permissions).toEqual(['market:read']);
    expect(Date.parse(details.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const list = (await t.app.inject({ url: '/api/account/tokens', headers: header })).json();
    const listed = list.data.find((x: { id: string }) => x.id === details.id);
    expect(listed.status).toBe('active');
    expect(JSON.stringify(list)).not.toContain(token);

    const used = await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } });
    expect(used.statusCode).toBe(403); // narrowed to market:read, /api/account needs account:read

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/account/tokens/${details.id}/rotate`,
      headers: header,
    });
    expect(rotated.statusCode).toBe(201);
    const fresh = rotated.json();
    expect(fresh.token).not.toBe(token);
    expect(fresh.details.permissions).toEqual(['market:read']);
    expect(fresh.details.expiresAt).toBe(details.expiresAt);
    const old = await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } });
    expect(old.statusCode).toBe(401);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${fresh.details.id}`,
      headers: header,
    });
    expect(revoked.json().status).toBe('revoked');
  });

  it('never lets an API token manage tokens', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: member.auth,
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    const list = await t.app.inject({ url: '/api/account/tokens', headers: member.auth });
    expect(list.statusCode).toBe(403);
  });

  it('refuses token creation beyond the owner’s permissions', async () => {
    const viewer = await t.user('viewer');
    const { header } = await login(viewer);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: header,
      payload: { name: 'x', permissions: ['alerts:write'] },
    });
    expect(res.statusCode).toBe(403);
  });

  it('rejects cross-site state changes on a session (CSRF)', async () => {
    const { header } = await login(member);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { ...header, origin: 'https://evil.example' },
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_rejected');
  });

  it('ends the session on logout', async () => {
    const { header } = await login(member);
    expect((await t.app.inject({ url: '/api/account/tokens', headers: header })).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/auth/logout', headers: header });
    expect((await t.app.inject({ url: '/api/account/tokens', headers: header })).statusCode).toBe(401);
  });

  it('updates last used at most once a minute', async () => {
    const user = await t.user('viewer');
    await t.app.inject({ url: '/api/account', headers: user.auth });
    // The touch is written in the background (not on the request path). PGlite runs queries one at a time
    // so it has always landed; PostgreSQL runs it on another pooled connection, so wait for it.
    const lastUsed = async () => (await t.container.accounts.listTokens(user.id))[0]!.lastUsedAt;
    await expect.poll(lastUsed, { timeout: 2000, interval: 10 }).not.toBeNull();
    const first = await lastUsed();
    // A second touch, were it written, would then carry another time.
    await waitUntil(() => t.container.clock.now() > Date.parse(first!), 'the clock to move on', 1_000, 1);
    await t.app.inject({ url: '/api/account', headers: user.auth });
    // Letting time pass is the point here: a touch written in the background would have landed by then.
    await new Promise((r) => setTimeout(r, 20));
    expect((await t.container.accounts.listTokens(user.id))[0]!.lastUsedAt).toBe(first);
  });
});

describe('failed authentication is limited without locking out valid tokens', () => {
  it('charges unknown tokens to the address: 429 after the limit, no account charged', async () => {
    const t = await createTestApp({ env: { MERIDIAN_AUTH_FAILURE_LIMIT: '5' } });
    try {
      const user = await t.user('viewer');
      const unknown = { authorization: `Bearer ${generateToken()}` };
      for (let i = 0; i < 5; i++) {
        expect((await t.app.inject({ url: '/api/account', headers: unknown })).statusCode).toBe(401);
      }
      const limited = await t.app.inject({ url: '/api/account', headers: unknown });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('auth_rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another well-formed unknown token from the same address is refused too…
      const another = { authorization: `Bearer ${generateToken()}` };
      expect((await t.app.inject({ url: '/api/account', headers: another })).statusCode).toBe(429);
      // …but a valid token from that same address (a NAT neighbour) is served, with its full quota.
      const valid = await t.app.inject({ url: '/api/account', headers: user.auth });
      expect(valid.statusCode).toBe(200);
      expect(valid.headers.ratelimit).toBe('"account";r=119;t=0');
      const other = await t.app.inject({ url: '/api/account', headers: unknown, remoteAddress: '10.1.2.3' });
      expect(other.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('charges malformed tokens to their first characters, not to the address', async () => {
    const t = await createTestApp({ env: { MERIDIAN_AUTH_FAILURE_LIMIT: '5' } });
    try {
      for (let i = 0; i < 5; i++) {
        const junk = await t.app.inject({ url: '/api/account', headers: { authorization: 'Bearer junk' } });
        expect(junk.statusCode).toBe(401);
      }
      const limited = await t.app.inject({ url: '/api/account', headers: { authorization: 'Bearer junk' } });
      expect(limited.statusCode).toBe(429);
      // The same address presenting a well-formed unknown token is still answered 401, not 429.
      const unknown = { authorization: `Bearer ${generateToken()}` };
      expect((await t.app.inject({ url: '/api/account', headers: unknown })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
