import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/main/operator-commands.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { MAX_OWNED_ORGANIZATIONS } from '../../src/modules/accounts/organizations.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { webhookEnv } from '../webhooks/harness.ts';
import { type Json, orgClient } from './client.ts';

const T0 = Date.UTC(2026, 10, 2, 9);
const HOUR = 3_600_000;

/** Members, roles, invitations, ownership, and what a change does to the member's tokens at once. */
describe('organization membership', () => {
  let t: TestApp;
  let admin: TestUser;
  const clock = manualClock(T0);

  const { login, asSession: as, asToken: bearer, ok } = orgClient(() => t);
  const inject = (o: InjectOptions) => t.app.inject(o);
  const problem = (res: LightMyRequestResponse, status: number, detail: RegExp) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().detail).toMatch(detail);
  };

  /** A fresh user with a session, and an organization they own. */
  async function team(name: string) {
    const owner = await t.user('member');
    const cookie = await login(owner);
    const org = ok(await as(cookie, 'POST', '/api/organizations', { name }), 201);
    return { owner, cookie, org: org as Json };
  }
  async function join(ownerCookie: string, orgId: string, role: string) {
    const user = await t.user('member');
    const cookie = await login(user);
    const invited = ok(
      await as(ownerCookie, 'POST', `/api/organizations/${orgId}/invitations`, { role }),
      201,
    );
    ok(await as(cookie, 'POST', '/api/invitations/accept', { token: invited.token }), 200);
    const token = ok(await as(cookie, 'POST', '/api/account/tokens', { name: 'bot' }, orgId), 201);
    return { user, cookie, token: token.token as string, tokenId: token.details.id as string };
  }
  const auditActions = async () =>
    (ok(await inject({ url: '/api/audit-log?limit=200', headers: admin.auth }), 200).data as Json[]).map(
      (e) => e.action as string,
    );

  beforeAll(async () => {
    t = await createTestApp({
      container: { clock },
      env: {
        ...webhookEnv,
        MERIDIAN_RATE_LIMIT_STANDARD: '100000',
        MERIDIAN_CONSOLE_URL: 'https://console.example',
      },
    });
    admin = await t.user('admin');
  });
  afterAll(() => t?.close());

  it('every account has its personal organization, owned, listed first; existing data stays in it', async () => {
    const user = await t.user('member');
    const cookie = await login(user);
    const rule = ok(
      await bearer(user.token, 'POST', '/api/alerts', {
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 1e9 },
      }),
      201,
    );
    const mine = ok(await as(cookie, 'GET', '/api/organizations'), 200).data;
    expect(mine).toEqual([
      expect.objectContaining({ id: user.id, personal: true, role: 'owner', plan: 'standard' }),
    ]);
    // The personal organization named explicitly is the default one.
    ok(await as(cookie, 'GET', `/api/alerts/${rule.id}`, undefined, user.id), 200);
    const account = ok(await bearer(user.token, 'GET', '/api/account'), 200);
    expect(account.organization).toEqual({ id: user.id, role: 'owner' });
    problem(
      await as(cookie, 'POST', `/api/organizations/${user.id}/invitations`, { role: 'member' }),
      409,
      /personal organization/,
    );
    problem(await as(cookie, 'DELETE', `/api/organizations/${user.id}/members/${user.id}`), 409, /personal/);
  });

  it('an account owns a bounded number of organizations (each has its own rate-limit window)', async () => {
    const user = await t.user('member');
    const cookie = await login(user);
    for (let i = 0; i < MAX_OWNED_ORGANIZATIONS; i++)
      ok(await as(cookie, 'POST', '/api/organizations', { name: `Desk ${i}` }), 201);
    problem(await as(cookie, 'POST', '/api/organizations', { name: 'One too many' }), 409, /at most 10/);
    expect(ok(await as(cookie, 'GET', '/api/organizations'), 200).data).toHaveLength(
      MAX_OWNED_ORGANIZATIONS + 1,
    );
  });

  it("a member's token acts with their current role: lowered or removed, at once", async () => {
    const { cookie, org } = await team('Inherit');
    const m = await join(cookie, org.id, 'member');
    const write = () =>
      bearer(m.token, 'POST', '/api/alerts', {
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 1 },
      });
    ok(await write(), 201);
    expect(ok(await bearer(m.token, 'GET', '/api/account'), 200).organization.role).toBe('member');

    ok(
      await as(cookie, 'PATCH', `/api/organizations/${org.id}/members/${m.user.id}`, { role: 'viewer' }),
      200,
    );
    problem(await write(), 403, /alerts:write/);
    expect(ok(await bearer(m.token, 'GET', '/api/account'), 200).organization.role).toBe('viewer');
    // A token cannot hold more than its issuer: a viewer cannot issue a writing token.
    problem(
      await as(m.cookie, 'POST', '/api/account/tokens', { name: 'w', permissions: ['alerts:write'] }, org.id),
      403,
      /lacks/,
    );

    ok(
      await as(cookie, 'PATCH', `/api/organizations/${org.id}/members/${m.user.id}`, { role: 'member' }),
      200,
    );
    ok(await write(), 201);

    ok(await as(cookie, 'DELETE', `/api/organizations/${org.id}/members/${m.user.id}`), 204);
    problem(await bearer(m.token, 'GET', '/api/account'), 401, /revoked/);
    problem(await as(m.cookie, 'GET', '/api/alerts', undefined, org.id), 404, /no organization/);
    const members = ok(await as(cookie, 'GET', `/api/organizations/${org.id}/members`), 200).data;
    expect(members.map((x: Json) => x.userId)).not.toContain(m.user.id);
  });

  it('invitations: shown once, accepted once, before expiry, by the invited address; withdrawn ones fail', async () => {
    const { cookie, org } = await team('Invites');
    const invited = ok(
      await as(cookie, 'POST', `/api/organizations/${org.id}/invitations`, {
        role: 'viewer',
        expiresIn: '2h',
      }),
      201,
    );
    expect(invited.token).toMatch(/^mi_/);
    expect(invited.link).toBe(`https://console.example/organization#invitation=${invited.token}`);
    expect(invited.emailed).toBe(false);
    const listed = ok(await as(cookie, 'GET', `/api/organizations/${org.id}/invitations`), 200);
    expect(listed.data).toEqual([expect.objectContaining({ id: invited.details.id, role: 'viewer' })]);
    expect(JSON.stringify(listed)).not.toContain(invited.token);

    const first = await t.user('member');
    const firstCookie = await login(first);
    expect(
      ok(await as(firstCookie, 'POST', '/api/invitations/accept', { token: invited.token }), 200).role,
    ).toBe('viewer');
    const second = await login(await t.user('member'));
    problem(
      await as(second, 'POST', '/api/invitations/accept', { token: invited.token }),
      409,
      /used already/,
    );
    problem(await as(second, 'POST', '/api/invitations/accept', { token: 'mi_nothing' }), 404, /not known/);

    const expiring = ok(
      await as(cookie, 'POST', `/api/organizations/${org.id}/invitations`, {
        role: 'member',
        expiresIn: '1h',
      }),
      201,
    );
    clock.advance(HOUR + 1);
    problem(await as(second, 'POST', '/api/invitations/accept', { token: expiring.token }), 409, /expired/);

    const addressed = ok(
      await as(cookie, 'POST', `/api/organizations/${org.id}/invitations`, {
        role: 'member',
        email: 'someone-else@example.com',
      }),
      201,
    );
    problem(
      await as(second, 'POST', '/api/invitations/accept', { token: addressed.token }),
      403,
      /another email/,
    );

    const withdrawn = ok(
      await as(cookie, 'POST', `/api/organizations/${org.id}/invitations`, { role: 'member' }),
      201,
    );
    ok(await as(cookie, 'DELETE', `/api/organizations/${org.id}/invitations/${withdrawn.details.id}`), 204);
    problem(
      await as(second, 'POST', '/api/invitations/accept', { token: withdrawn.token }),
      404,
      /not known/,
    );

    // Only owners and admins invite or see invitations.
    problem(
      await as(firstCookie, 'POST', `/api/organizations/${org.id}/invitations`, { role: 'viewer' }),
      403,
      /owner or admin/,
    );
    problem(await as(firstCookie, 'GET', `/api/organizations/${org.id}/invitations`), 403, /owner or admin/);
    problem(
      await as(cookie, 'POST', `/api/organizations/${org.id}/invitations`, { role: 'owner' }),
      400,
      /./,
    );
  });

  it('the last owner cannot leave or be demoted; ownership is transferred; then the old owner may leave', async () => {
    const { owner, cookie, org } = await team('Owners');
    const a = await join(cookie, org.id, 'admin');
    problem(
      await as(cookie, 'DELETE', `/api/organizations/${org.id}/members/${owner.id}`),
      409,
      /last owner/,
    );
    problem(
      await as(cookie, 'PATCH', `/api/organizations/${org.id}/members/${owner.id}`, { role: 'admin' }),
      409,
      /last owner/,
    );
    // An admin can neither remove an owner nor grant ownership, nor transfer it.
    problem(await as(a.cookie, 'DELETE', `/api/organizations/${org.id}/members/${owner.id}`), 403, /owner/);
    problem(
      await as(a.cookie, 'PATCH', `/api/organizations/${org.id}/members/${a.user.id}`, { role: 'owner' }),
      403,
      /ownership/,
    );
    problem(
      await as(a.cookie, 'POST', `/api/organizations/${org.id}/transfer`, { userId: a.user.id }),
      403,
      /owner/,
    );
    problem(
      await as(cookie, 'POST', `/api/organizations/${org.id}/transfer`, { userId: 'usr_nobody' }),
      404,
      /no member/,
    );

    const moved = ok(
      await as(cookie, 'POST', `/api/organizations/${org.id}/transfer`, { userId: a.user.id }),
      200,
    );
    expect(moved.role).toBe('admin');
    const roles = ok(await as(a.cookie, 'GET', `/api/organizations/${org.id}/members`), 200).data;
    expect(Object.fromEntries(roles.map((m: Json) => [m.userId, m.role]))).toEqual({
      [owner.id]: 'admin',
      [a.user.id]: 'owner',
    });
    expect(ok(await bearer(a.token, 'GET', '/api/account'), 200).organization.role).toBe('owner');
    ok(await as(cookie, 'DELETE', `/api/organizations/${org.id}/members/${owner.id}`), 204);
    problem(await as(cookie, 'GET', `/api/organizations/${org.id}`), 404, /no organization/);
    problem(
      await as(a.cookie, 'DELETE', `/api/organizations/${org.id}/members/${a.user.id}`),
      409,
      /last owner/,
    );
  });

  it('an organization can require two-factor sign-in: members without it are refused there', async () => {
    const { cookie, org } = await team('Strict');
    const m = await join(cookie, org.id, 'member');
    problem(
      await as(cookie, 'PATCH', `/api/organizations/${org.id}`, { requireTwoFactor: true }),
      409,
      /your own account/,
    );
    const begun = ok(await as(cookie, 'POST', '/api/account/two-factor'), 200);
    const code = new TOTP({
      secret: Secret.fromBase32(begun.secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    }).generate({
      timestamp: clock.now(),
    });
    ok(await as(cookie, 'POST', '/api/account/two-factor/confirm', { code }), 200);
    const strict = ok(
      await as(cookie, 'PATCH', `/api/organizations/${org.id}`, { requireTwoFactor: true }),
      200,
    );
    expect(strict.requireTwoFactor).toBe(true);
    problem(await bearer(m.token, 'GET', '/api/account'), 403, /requires two-factor/);
    problem(await as(m.cookie, 'GET', '/api/alerts', undefined, org.id), 403, /requires two-factor/);
    // Their personal organization is not affected.
    ok(await as(m.cookie, 'GET', '/api/alerts'), 200);
    ok(await as(cookie, 'GET', '/api/alerts', undefined, org.id), 200);
  });

  it("the plan is the organization's: an operator's change applies to its members' tokens at once", async () => {
    const { cookie, org } = await team('Planned');
    const m = await join(cookie, org.id, 'viewer');
    const before = ok(await bearer(m.token, 'GET', '/api/account'), 200);
    expect(before).toMatchObject({ plan: 'standard' });
    const done = await runOperatorCommand(t.container, [
      'orgs',
      'set-plan',
      '--id',
      org.id,
      '--plan',
      'pro',
      '--rate-limit',
      '777',
    ]);
    expect(done.code, done.err.join('\n')).toBe(0);
    const after = ok(await bearer(m.token, 'GET', '/api/account'), 200);
    expect(after).toMatchObject({ plan: 'pro', limits: { requestsPerMinute: 777 } });
    expect(after.organization).toEqual({ id: org.id, role: 'viewer' });
    // The member's personal organization keeps its own plan.
    const personal = ok(await as(m.cookie, 'GET', '/api/account'), 200);
    expect(personal).toMatchObject({ plan: 'standard', organization: { id: m.user.id, role: 'owner' } });
    // The operator's `users set-plan` is the personal organization's plan.
    await runOperatorCommand(t.container, ['users', 'set-plan', '--email', m.user.email, '--plan', 'pro']);
    expect(ok(await as(m.cookie, 'GET', '/api/account'), 200).plan).toBe('pro');
    expect(ok(await as(m.cookie, 'GET', `/api/organizations/${m.user.id}`), 200).plan).toBe('pro');
  });

  it('records each organization action in the audit log', async () => {
    const actions = new Set(await auditActions());
    for (const action of [
      'organization.create',
      'organization.update',
      'organization.invite',
      'organization.invitation_revoke',
      'organization.join',
      'organization.member_role_change',
      'organization.member_remove',
      'organization.leave',
      'organization.transfer',
    ])
      expect(actions, action).toContain(action);
  });
});
