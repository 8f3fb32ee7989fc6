import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Role, rolePermissions, roles } from '../../src/modules/accounts/index.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

const fillParams = (url: string) => url.replace(/:[^/]+/g, 'tok_doesnotexist000000');

describe.each(dbKinds())('permission matrix on %s', (kind) => {
  let t: TestApp;
  const users = {} as Record<Role, TestUser>;
  const sessions = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    for (const role of roles) {
      users[role] = await t.user(role, { plan: 'pro' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: users[role].email, password: users[role].password },
      });
      sessions[role] = `meridian_session=${res.cookies[0]!.value}`;
    }
  });
  afterAll(() => t.close());

  it('lists authenticated routes, each with a permission', () => {
    const routes = t.app.routeAccess!();
    expect(routes.length).toBeGreaterThanOrEqual(5);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('GET /api/account');
  });

  it('grants exactly the role’s permissions on every route (token and session)', async () => {
    for (const route of t.app.routeAccess!()) {
      for (const role of roles) {
        const allowed = rolePermissions[role].includes(route.permission);
        const url = fillParams(route.url);
        const method = route.method as 'GET';
        const payload = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
        const viaToken = await t.app.inject({ method, url, headers: users[role].auth, payload });
        const viaSession = await t.app.inject({ method, url, headers: { cookie: sessions[role] }, payload });
        const where = `${route.method} ${route.url} as ${role}`;
        if (route.mode === 'session') {
          expect(viaToken.statusCode, `${where} with a token`).toBe(403);
        } else if (allowed) {
          expect([401, 403], `${where} with a token`).not.toContain(viaToken.statusCode);
        } else {
          expect(viaToken.statusCode, `${where} with a token`).toBe(403);
        }
        if (allowed) expect([401, 403], `${where} with a session`).not.toContain(viaSession.statusCode);
        else expect(viaSession.statusCode, `${where} with a session`).toBe(403);
      }
    }
  });

  it('narrows a token to fewer permissions and never beyond its owner’s', async () => {
    const narrowed = await t.user('admin', { permissions: ['market:read'] });
    expect((await t.app.inject({ url: '/api/account', headers: narrowed.auth })).statusCode).toBe(403);
    // Demoting the owner demotes the token at once (after the few-second cache): role checked on use.
    const user = await t.user('member', { permissions: ['account:read'] });
    expect((await t.app.inject({ url: '/api/account', headers: user.auth })).json().permissions).toEqual([
      'account:read',
    ]);
  });

  it('refuses a revoked token on the next request', async () => {
    const user = await t.user('member');
    expect((await t.app.inject({ url: '/api/account', headers: user.auth })).statusCode).toBe(200);
    await t.container.accounts.revokeToken(user.id, user.tokenId);
    const res = await t.app.inject({ url: '/api/account', headers: user.auth });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toContain('revoked');
  });

  it("cannot touch another account's tokens", async () => {
    const owner = users.member;
    const intruder = sessions.admin;
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${owner.tokenId}`,
      headers: { cookie: intruder },
    });
    expect(revoke.statusCode).toBe(404);
    const rotate = await t.app.inject({
      method: 'POST',
      url: `/api/account/tokens/${owner.tokenId}/rotate`,
      headers: { cookie: intruder },
    });
    expect(rotate.statusCode).toBe(404);
    const list = (await t.app.inject({ url: '/api/account/tokens', headers: { cookie: intruder } })).json();
    expect(list.data.map((x: { id: string }) => x.id)).not.toContain(owner.tokenId);
    expect((await t.app.inject({ url: '/api/account', headers: owner.auth })).statusCode).toBe(200);
  });
});
