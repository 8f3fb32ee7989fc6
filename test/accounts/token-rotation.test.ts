import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { waitUntil } from '../harness/wait.ts';

/** Rotation never widens a token's lifetime (issue 34, item 4). */
describe('POST /api/account/tokens/:id/rotate', () => {
  let t: TestApp;
  let member: TestUser;
  let session: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp();
    member = await t.user('member');
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: member.email, password: member.password },
    });
    session = { cookie: `meridian_session=${res.cookies.find((c) => c.name === 'meridian_session')!.value}` };
  });
  afterAll(() => t.close());

  const rotate = (id: string) =>
    t.app.inject({ method: 'POST', url: `/api/account/tokens/${id}/rotate`, headers: session });

  it('refuses an expired token with 409 token_expired, issuing nothing and leaving it as it was', async () => {
    const { clock, accounts } = t.container;
    // Long enough to be created on a loaded machine before it expires.
    const expiresAt = clock.now() + 1_500;
    const { view } = await accounts.createToken(member.id, { name: 'short-lived', expiresAt });
    await waitUntil(() => clock.now() > expiresAt, 'the token to expire', 5_000);
    const before = await accounts.listTokens(member.id);

    const res = await rotate(view.id);
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const problem = res.json();
    expect(problem.code).toBe('token_expired');
    expect(problem.detail).toContain('expired');
    expect(problem.detail).toContain(view.id);
    expect(JSON.stringify(problem)).not.toMatch(/mrd_/);

    const after = await accounts.listTokens(member.id);
    expect(after).toEqual(before);
    expect(after.find((x) => x.id === view.id)?.status).toBe('expired');
  });

  it('keeps the exact expiry of a live token, and a token without expiry stays without one', async () => {
    const { clock, accounts } = t.container;
    const expiresAt = clock.now() + 3_600_000;
    const expiring = await accounts.createToken(member.id, { name: 'hourly', expiresAt });
    const rotated = await rotate(expiring.view.id);
    expect(rotated.statusCode).toBe(201);
    expect(Date.parse(rotated.json().details.expiresAt)).toBe(expiresAt);

    const forever = await accounts.createToken(member.id, { name: 'forever' });
    const rotatedForever = await rotate(forever.view.id);
    expect(rotatedForever.statusCode).toBe(201);
    expect(rotatedForever.json().details.expiresAt).toBeNull();
  });
});
