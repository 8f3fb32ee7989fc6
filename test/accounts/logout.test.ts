import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** Sign-out is a cookie-authenticated write: the same Origin rule as every other one (issue 34, item 3). */
describe('POST /auth/logout', () => {
  let t: TestApp;
  let member: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { MERIDIAN_ALLOWED_HOSTS: 'meridian.test' } });
    member = await t.user('member');
  });
  afterAll(() => t.close());

  const signIn = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: member.email, password: member.password },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'meridian_session')!;
    return { cookie: `meridian_session=${cookie.value}` };
  };
  const signedIn = async (headers: { cookie: string }) =>
    (await t.app.inject({ url: '/api/account/tokens', headers })).statusCode === 200;

  it('refuses a cross-origin sign-out with csrf_rejected and leaves the session alive', async () => {
    const session = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...session, origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json().code).toBe('csrf_rejected');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await signedIn(session)).toBe(true);
  });

  it('signs out from the console’s own origin, and without an Origin header', async () => {
    const sameOrigin = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { ...sameOrigin, host: 'meridian.test', origin: 'https://meridian.test' },
    });
    expect(res.statusCode).toBe(204);
    expect(await signedIn(sameOrigin)).toBe(false);

    const noOrigin = await signIn();
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers: noOrigin })).statusCode).toBe(
      204,
    );
    expect(await signedIn(noOrigin)).toBe(false);
  });
});
