import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Permission,
  type Role,
  createKyselyAccountsRepository,
  permissions,
  rolePermissions,
  roles,
} from '../../src/modules/accounts/index.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { buildServer } from '../../src/http/server.ts';
import { runOperatorCommand } from '../../src/main/operator-commands.ts';
import type { App } from '../../src/http/types.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

/** A permission a member has and a viewer lacks: what a demotion takes away. */
const memberOnly = permissions.find(
  (p) => rolePermissions.member.includes(p) && !rolePermissions.viewer.includes(p),
)!;

const fillParams = (url: string) => url.replace(/:[^/]+/g, 'tok_doesnotexist000000');

// The product's own routes all need a permission every role has (viewer included), so on them alone the
// "role lacks the permission" branch of the guard never runs. The test server gets one probe route per
// permission and mode, registered here only, so every row of the role → permission table is exercised.
const probeUrl = (mode: 'token' | 'session', p: Permission) =>
  `${mode === 'token' ? '/api/test-probe' : '/test-probe-session'}/${p.replace(':', '-')}`;

/** The product server for a container, plus the probe routes (before `ready`, so the auth hook sees them). */
async function serverWithProbes(t: TestApp): Promise<App> {
  const app = await buildServer(t.container, { logLevel: 'silent' });
  for (const p of permissions) {
    for (const mode of ['token', 'session'] as const) {
      app.get(probeUrl(mode, p), { config: { auth: mode, permission: p } }, async (request) => ({
        probe: p,
        role: request.principal!.role,
      }));
    }
  }
  await app.ready();
  return app;
}

/** What the role → permission table (and a token's own narrowing, when it has one) says the caller may do. */
const mayDo = (role: Role, permission: Permission, narrowedTo?: readonly Permission[]) =>
  rolePermissions[role].includes(permission) && (narrowedTo === undefined || narrowedTo.includes(permission));

describe.each(dbKinds())('permission matrix on %s', (kind) => {
  let t: TestApp;
  let app: App;
  const users = {} as Record<Role, TestUser>;
  const sessions = {} as Record<Role, string>;

  const login = async (a: App, user: TestUser) => {
    const res = await a.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    return `meridian_session=${res.cookies[0]!.value}`;
  };

  beforeAll(async () => {
    t = await createTestApp({ db: kind });
    app = await serverWithProbes(t);
    for (const role of roles) {
      users[role] = await t.user(role, { plan: 'pro' });
      sessions[role] = await login(app, users[role]);
    }
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('lists authenticated routes, each with a permission; the probes cover every permission', () => {
    const routes = app.routeAccess!();
    expect(routes.length).toBeGreaterThanOrEqual(5);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('GET /api/account');
    for (const mode of ['token', 'session'] as const) {
      expect(new Set(routes.filter((r) => r.mode === mode).map((r) => r.permission))).toEqual(
        new Set(permissions),
      );
    }
    // The table itself must give the matrix something to refuse: some role lacks some permission.
    expect(roles.some((role) => permissions.some((p) => !rolePermissions[role].includes(p)))).toBe(true);
  });

  it('grants exactly the role’s permissions on every route (token, narrowed token and session)', async () => {
    // Narrowed tokens, derived from the table: each role's token narrowed to every other permission it has
    // plus one it lacks (a narrowing list may not exceed the owner, so the extra one is left out at creation).
    const narrowed = {} as Record<Role, { user: TestUser; to: Permission[] }>;
    for (const role of roles) {
      const to = rolePermissions[role].filter((_, i) => i % 2 === 0);
      narrowed[role] = { user: await t.user(role, { plan: 'pro', permissions: to }), to };
    }

    const outcomes = { allowed: 0, refusedByRole: 0, refusedByNarrowing: 0, tokenOnSessionRoute: 0 };
    const refusedFor = Object.fromEntries(roles.map((r) => [r, new Set<Permission>()])) as Record<
      Role,
      Set<Permission>
    >;
    for (const route of app.routeAccess!()) {
      const probe = route.url.includes('test-probe');
      const url = fillParams(route.url);
      const method = route.method as 'GET';
      const payload = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
      for (const role of roles) {
        const where = `${route.method} ${route.url} (needs ${route.permission}) as ${role}`;
        const allowed = mayDo(role, route.permission);
        const expectRefused = (
          res: { statusCode: number; json(): { code: string; detail: string } },
          how: string,
        ) => {
          expect(res.statusCode, `${where} ${how}`).toBe(403);
          expect(res.json().code, `${where} ${how}`).toBe('forbidden');
        };
        const expectAllowed = (res: { statusCode: number; json(): { role: string } }, how: string) => {
          if (probe) {
            expect(res.statusCode, `${where} ${how}`).toBe(200);
            expect(res.json().role).toBe(role);
          } else {
            expect([401, 403], `${where} ${how}`).not.toContain(res.statusCode);
          }
        };

        const viaToken = await app.inject({ method, url, headers: users[role].auth, payload });
        const viaSession = await app.inject({ method, url, headers: { cookie: sessions[role] }, payload });
        const viaNarrowed = await app.inject({ method, url, headers: narrowed[role].user.auth, payload });

        if (allowed) {
          expectAllowed(viaSession, 'with a session');
          outcomes.allowed++;
        } else {
          expectRefused(viaSession, 'with a session');
          expect(viaSession.json().detail).toContain(`needs the ${route.permission} permission`);
          refusedFor[role].add(route.permission);
          outcomes.refusedByRole++;
        }

        if (route.mode === 'session') {
          // Token management is console-only: no token, however privileged, reaches it.
          expectRefused(viaToken, 'with a token');
          expect(viaToken.json().detail).toContain(`${method} ${route.url} is console-only`);
          expectRefused(viaNarrowed, 'with a narrowed token');
          outcomes.tokenOnSessionRoute++;
          continue;
        }
        if (allowed) expectAllowed(viaToken, 'with a token');
        else {
          expectRefused(viaToken, 'with a token');
          expect(viaToken.json().detail).toContain(`needs the ${route.permission} permission`);
        }
        if (mayDo(role, route.permission, narrowed[role].to))
          expectAllowed(viaNarrowed, 'with a narrowed token');
        else {
          expectRefused(viaNarrowed, 'with a narrowed token');
          if (allowed) outcomes.refusedByNarrowing++;
        }
      }
    }

    // Every branch ran, and each role was refused exactly the permissions the table withholds from it.
    expect(outcomes.allowed).toBeGreaterThan(0);
    expect(outcomes.refusedByRole).toBeGreaterThan(0);
    expect(outcomes.refusedByNarrowing).toBeGreaterThan(0);
    expect(outcomes.tokenOnSessionRoute).toBeGreaterThan(0);
    for (const role of roles) {
      expect([...refusedFor[role]].sort(), role).toEqual(
        permissions.filter((p) => !rolePermissions[role].includes(p)).sort(),
      );
    }
  });

  it('narrows a token to fewer permissions and never beyond its owner’s', async () => {
    const narrowed = await t.user('admin', { permissions: ['market:read'] });
    expect((await app.inject({ url: '/api/account', headers: narrowed.auth })).statusCode).toBe(403);
    expect(
      (await app.inject({ url: probeUrl('token', 'users:manage'), headers: narrowed.auth })).statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ url: probeUrl('token', 'market:read'), headers: narrowed.auth })).statusCode,
    ).toBe(200);
    const user = await t.user('member', { permissions: ['account:read'] });
    expect((await app.inject({ url: '/api/account', headers: user.auth })).json().permissions).toEqual([
      'account:read',
    ]);
    // A narrowing list cannot name a permission the owner lacks.
    const lacking = permissions.find((p) => !rolePermissions.viewer.includes(p))!;
    await expect(t.user('viewer', { permissions: [lacking] })).rejects.toThrow(/cannot grant permissions/);
  });

  it('an operator demoting a member to viewer demotes the member’s tokens and sessions on the next request', async () => {
    const probes = await serverWithProbes(t);
    try {
      const url = probeUrl('token', memberOnly);
      const user = await t.user('member');
      const session = await login(probes, user);
      expect((await probes.inject({ url, headers: user.auth })).statusCode).toBe(200);

      const result = await runOperatorCommand(t.container, [
        'users',
        'set-role',
        '--email',
        user.email,
        '--role',
        'viewer',
      ]);
      expect(result.code).toBe(0);
      expect(result.out).toEqual([`${user.email}: role viewer`]);

      // No waiting for the token cache: the change drops the user's cached tokens at once.
      const byToken = await probes.inject({ url, headers: user.auth });
      expect(byToken.statusCode).toBe(403);
      expect(byToken.json().detail).toContain(`needs the ${memberOnly} permission`);
      expect((await probes.inject({ url, headers: { cookie: session } })).statusCode).toBe(403);
      expect((await probes.inject({ url: '/api/account', headers: user.auth })).json().role).toBe('viewer');

      const bad = await runOperatorCommand(t.container, [
        'users',
        'set-role',
        '--email',
        user.email,
        '--role',
        'root',
      ]);
      expect(bad.code).not.toBe(0);
      expect(bad.err.join('\n')).toMatch(/role must be one of viewer, member, admin/);
      const nobody = await runOperatorCommand(t.container, [
        'users',
        'set-role',
        '--email',
        'nobody@example.com',
        '--role',
        'viewer',
      ]);
      expect(nobody.code).not.toBe(0);
      expect(nobody.err.join('\n')).toMatch(/no user with email nobody@example.com/);
      const missing = await runOperatorCommand(t.container, ['users', 'set-role', '--email', user.email]);
      expect(missing.code).not.toBe(0);
      expect(missing.err.join('\n')).toMatch(/--role/);
    } finally {
      await probes.close();
    }
  });

  it('a token never exceeds its owner’s current role (role changed in storage; cache window honoured)', async () => {
    // The role is changed in the users table directly, bypassing the operator command (which drops cached
    // tokens at once, see above). Sessions are resolved on every request; tokens are cached for a few seconds
    // (5 s), so the test clock moves on.
    const clock = manualClock(Date.now());
    const own = await createTestApp({ db: kind, container: { clock } });
    const probes = await serverWithProbes(own);
    try {
      const url = probeUrl('token', memberOnly);
      const user = await own.user('member');
      const session = await login(probes, user);
      expect((await probes.inject({ url, headers: user.auth })).statusCode).toBe(200);
      expect((await probes.inject({ url, headers: { cookie: session } })).statusCode).toBe(200);

      await createKyselyAccountsRepository(tablesOf(own.container.db.db)).updateUser(user.id, {
        role: 'viewer',
      });

      const bySession = await probes.inject({ url, headers: { cookie: session } });
      expect(bySession.statusCode).toBe(403);
      clock.advance(6_000); // past the token cache
      const byToken = await probes.inject({ url, headers: user.auth });
      expect(byToken.statusCode).toBe(403);
      expect(byToken.json().detail).toContain(`needs the ${memberOnly} permission`);
      const account = (await probes.inject({ url: '/api/account', headers: user.auth })).json();
      expect(account.role).toBe('viewer');
      expect(account.permissions).toEqual([...rolePermissions.viewer].sort());
    } finally {
      await probes.close();
      await own.close();
    }
  });

  it('refuses a revoked token on the next request', async () => {
    const user = await t.user('member');
    expect((await app.inject({ url: '/api/account', headers: user.auth })).statusCode).toBe(200);
    await t.container.accounts.revokeToken(user.id, user.tokenId);
    const res = await app.inject({ url: '/api/account', headers: user.auth });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toContain('revoked');
  });

  it("cannot touch another account's tokens", async () => {
    const owner = users.member;
    const intruder = sessions.admin;
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${owner.tokenId}`,
      headers: { cookie: intruder },
    });
    expect(revoke.statusCode).toBe(404);
    const rotate = await app.inject({
      method: 'POST',
      url: `/api/account/tokens/${owner.tokenId}/rotate`,
      headers: { cookie: intruder },
    });
    expect(rotate.statusCode).toBe(404);
    const list = (await app.inject({ url: '/api/account/tokens', headers: { cookie: intruder } })).json();
    expect(list.data.map((x: { id: string }) => x.id)).not.toContain(owner.tokenId);
    expect((await app.inject({ url: '/api/account', headers: owner.auth })).statusCode).toBe(200);
  });
});
