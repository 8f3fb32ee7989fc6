import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** The session cookie is `Secure` whenever the request came over https (issue 34, item 9). */
describe.each([
  ['behind a trusted proxy', { TRUST_PROXY: 'true' }, true],
  ['without TRUST_PROXY (X-Forwarded-Proto is not believed)', {}, false],
])('the session cookie %s', (_name, env, forwardedHttpsCounts) => {
  let t: TestApp;
  let member: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ env });
    member = await t.user('member');
  });
  afterAll(() => t.close());

  const signIn = (headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers,
      payload: { email: member.email, password: member.password },
    });
  const sessionCookie = (res: Awaited<ReturnType<typeof signIn>>) =>
    res.cookies.find((c) => c.name === 'meridian_session')!;

  it('is Secure on a request forwarded as https only when the proxy is trusted', async () => {
    const res = await signIn({ 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    expect(Boolean(sessionCookie(res).secure)).toBe(forwardedHttpsCounts);
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: {
        'x-forwarded-proto': 'https',
        cookie: `meridian_session=${sessionCookie(res).value}`,
      },
    });
    expect(signOut.statusCode).toBe(204);
    expect(Boolean(sessionCookie(signOut).secure)).toBe(forwardedHttpsCounts);
  });

  it('is not Secure over plain http (a local console keeps working)', async () => {
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res).secure).toBeFalsy();
  });
});

describe('MERIDIAN_COOKIE_SECURE=true', () => {
  it('marks the cookie Secure on plain http too', async () => {
    const t = await createTestApp({ env: { MERIDIAN_COOKIE_SECURE: 'true' } });
    try {
      const member = await t.user('member');
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: member.email, password: member.password },
      });
      expect(res.cookies.find((c) => c.name === 'meridian_session')!.secure).toBe(true);
    } finally {
      await t.close();
    }
  }, 90_000);
});
