import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;
type Page = {
  data: Array<{ id: string; createdAt: string }>;
  nextCursor: string | null;
  applied: { limit: number };
};

/** Per-plan caps on tokens and sessions, and the token list in pages (issue 34, item 6). */
describe('token and session caps, token pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MERIDIAN_TOKENS_STANDARD: '3',
        MERIDIAN_SESSIONS_STANDARD: '2',
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
      },
    });
  }, 120_000);
  afterAll(() => t.close());

  const signIn = async (user: TestUser) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
    return { cookie: `meridian_session=${res.cookies.find((c) => c.name === 'meridian_session')!.value}` };
  };
  const create = (session: { cookie: string }, name: string) =>
    t.app.inject({ method: 'POST', url: '/api/account/tokens', headers: session, payload: { name } });

  it('refuses a token beyond the plan cap with 409 token_limit_reached; revoking makes room; rotation is no new token', async () => {
    const user = await t.user('member'); // holds one token already
    const session = await signIn(user);
    expect((await create(session, 'two')).statusCode).toBe(201);
    const third = await create(session, 'three');
    expect(third.statusCode).toBe(201);
    const refused = await create(session, 'four');
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.json()).toMatchObject({ code: 'token_limit_reached', limit: 3 });
    expect(refused.json().detail).toContain('standard plan allows 3 active API tokens');

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/account/tokens/${third.json().details.id}/rotate`,
      headers: session,
    });
    expect(rotated.statusCode).toBe(201);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${rotated.json().details.id}`,
      headers: session,
    });
    expect((await create(session, 'four')).statusCode).toBe(201);
  });

  it('keeps at most the plan’s sessions: a sign-in beyond the cap ends the oldest', async () => {
    const user = await t.user('member');
    const sessions = [await signIn(user), await signIn(user), await signIn(user)];
    const alive = async (s: { cookie: string }) =>
      (await t.app.inject({ url: '/api/account/tokens', headers: s })).statusCode;
    expect(await alive(sessions[0]!)).toBe(401);
    expect(await alive(sessions[1]!)).toBe(200);
    expect(await alive(sessions[2]!)).toBe(200);
  });

  it('lists tokens newest first in pages with limit and cursor', async () => {
    const user = await t.user('member');
    const session = await signIn(user);
    // Revoked tokens stay listed: make six in all without passing the cap of three active ones.
    for (let i = 0; i < 5; i++) {
      const made = await create(session, `t${i}`);
      expect(made.statusCode).toBe(201);
      await t.app.inject({
        method: 'DELETE',
        url: `/api/account/tokens/${made.json().details.id}`,
        headers: session,
      });
    }
    const seen: Array<{ id: string; createdAt: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Reply = await t.app.inject({
        url: `/api/account/tokens?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        headers: session,
      });
      expect(res.statusCode).toBe(200);
      const body: Page = res.json();
      expect(body.applied).toEqual({ limit: 4 });
      expect(body.data.length).toBeLessThanOrEqual(4);
      seen.push(...body.data);
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(6);
    expect(new Set(seen.map((x) => x.id)).size).toBe(6);
    const times = seen.map((x) => Date.parse(x.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const bad = await t.app.inject({ url: '/api/account/tokens?cursor=nonsense', headers: session });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ pointer: '/query/cursor', message: expect.any(String) }]);
  });
});
