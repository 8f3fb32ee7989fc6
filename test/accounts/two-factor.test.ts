import type { InjectOptions } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFailuresPerMinute } from '../../src/http/code-attempts.ts';
import {
  createAccountsService,
  createMemoryAccountsRepository,
  createMemoryTwoFactorRepository,
} from '../../src/modules/accounts/index.ts';
import { AppError } from '../../src/shared/errors.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp, fastHasher } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

type Inject = TestApp['app']['inject'];
let address = 0;

/** Two-factor sign-in end to end: enrolment, the two-step sign-in, recovery codes, the lock, turning it off. */
function twoFactorHelpers(t: () => TestApp, clock: ReturnType<typeof manualClock>) {
  const inject = (options: InjectOptions) => t().app.inject(options);
  const codeFor = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: clock.now(),
    });
  const cookieOf = (res: Awaited<ReturnType<Inject>>) => {
    const c = res.cookies.find((c) => c.name === 'meridian_session');
    return c ? { cookie: `meridian_session=${c.value}` } : undefined;
  };
  const password = async (user: TestUser, remoteAddress = `10.1.0.${++address}`) =>
    inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress,
      payload: { email: user.email, password: user.password },
    });
  const session = async (user: TestUser) => cookieOf(await password(user))!;
  const enrol = async (user: TestUser) => {
    const headers = await session(user);
    const begun = await inject({ method: 'POST', url: '/api/account/two-factor', headers });
    expect(begun.statusCode).toBe(200);
    const { secret, uri } = begun.json() as { secret: string; uri: string };
    const confirmed = await inject({
      method: 'POST',
      url: '/api/account/two-factor/confirm',
      headers,
      payload: { code: codeFor(secret) },
    });
    expect(confirmed.statusCode).toBe(200);
    return {
      secret,
      uri,
      headers,
      recoveryCodes: (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes,
    };
  };
  const codeStep = (challenge: string, code: string, remoteAddress = `10.2.0.${++address}`) =>
    inject({ method: 'POST', url: '/auth/login/code', remoteAddress, payload: { challenge, code } });
  return { inject, codeFor, cookieOf, password, session, enrol, codeStep };
}

describe.each(dbKinds())('two-factor sign-in (TOTP) on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock(Date.now());
  const h = twoFactorHelpers(() => t, clock);
  beforeAll(async () => {
    t = await createTestApp({ db: kind, container: { clock } });
  });
  afterAll(() => t.close());

  it('enrols with a real code, then signs in in two steps; a code is not accepted twice', async () => {
    const user = await t.user('member');
    const { secret, uri, recoveryCodes } = await h.enrol(user);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Meridian:.+\?.*secret=/);
    expect(uri).toContain(secret);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const first = await h.password(user);
    expect(first.statusCode).toBe(200);
    expect(h.cookieOf(first)).toBeUndefined();
    const { step, challenge } = first.json() as { step: string; challenge: string };
    expect(step).toBe('code');

    // The code enrolment just used is of this time step: refused as a replay.
    const replay = await h.codeStep(challenge, h.codeFor(secret));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('invalid_code');

    clock.advance(30_000);
    const done = await h.codeStep(challenge, h.codeFor(secret));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ step: 'done', email: user.email });
    const headers = h.cookieOf(done)!;
    expect((await h.inject({ url: '/api/account/two-factor', headers })).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    // The challenge is used up.
    clock.advance(30_000);
    expect((await h.codeStep(challenge, h.codeFor(secret))).statusCode).toBe(401);
  });

  it('takes each recovery code once', async () => {
    const user = await t.user('member');
    const { recoveryCodes } = await h.enrol(user);
    const challengeOf = async () => ((await h.password(user)).json() as { challenge: string }).challenge;

    const used = await h.codeStep(await challengeOf(), recoveryCodes[3]!.toUpperCase());
    expect(used.statusCode).toBe(200);
    const again = await h.codeStep(await challengeOf(), recoveryCodes[3]!);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_code');
    const other = await h.codeStep(await challengeOf(), recoveryCodes[4]!);
    expect(other.statusCode).toBe(200);
    expect(
      (await h.inject({ url: '/api/account/two-factor', headers: h.cookieOf(other)! })).json(),
    ).toMatchObject({
      recoveryCodesLeft: 8,
    });
  });

  it('locks the account’s code step after too many wrong codes, even for the right code, from any address', async () => {
    const user = await t.user('member');
    const { secret } = await h.enrol(user);
    clock.advance(30_000);
    const replies = [];
    for (let i = 0; i < codeFailuresPerMinute; i++) {
      // A fresh challenge every time: the limit is per account, not per challenge.
      const { challenge } = (await h.password(user)).json() as { challenge: string };
      replies.push(await h.codeStep(challenge, '000000'));
    }
    expect(replies.map((r) => r.statusCode)).toEqual(Array(codeFailuresPerMinute).fill(400));
    const { challenge } = (await h.password(user)).json() as { challenge: string };
    const locked = await h.codeStep(challenge, h.codeFor(secret));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('auth_rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('turns off with a current code, and is refused with a wrong one', async () => {
    const user = await t.user('member');
    const { secret, headers } = await h.enrol(user);
    clock.advance(30_000);
    const wrong = await h.inject({
      method: 'POST',
      url: '/api/account/two-factor/disable',
      headers,
      payload: { code: '123456' === h.codeFor(secret) ? '654321' : '123456' },
    });
    expect(wrong.statusCode).toBe(400);
    const off = await h.inject({
      method: 'POST',
      url: '/api/account/two-factor/disable',
      headers,
      payload: { code: h.codeFor(secret) },
    });
    expect(off.statusCode).toBe(204);
    const plain = await h.password(user);
    expect(plain.json()).toMatchObject({ step: 'done' });
    expect(h.cookieOf(plain)).toBeDefined();
  });

  it('never stores the secret in plain text', async () => {
    const user = await t.user('member');
    const { secret } = await h.enrol(user);
    const rows = await t.container.db.db
      .selectFrom('two_factor' as never)
      .selectAll()
      .execute();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(secret);
    expect(text).toContain(user.id);
  });
});

describe('MERIDIAN_REQUIRE_2FA', () => {
  let t: TestApp;
  const clock = manualClock(Date.now());
  const h = twoFactorHelpers(() => t, clock);
  beforeAll(async () => {
    t = await createTestApp({ container: { clock }, env: { MERIDIAN_REQUIRE_2FA: 'true' } });
  });
  afterAll(() => t.close());

  it('makes an account without two-factor enrol during sign-in before it gets a session, and keeps it on', async () => {
    const user = await t.user('member');
    const first = await h.password(user);
    expect(first.json()).toMatchObject({ step: 'enrol' });
    expect(h.cookieOf(first)).toBeUndefined();
    const { challenge } = first.json() as { challenge: string };
    const begun = await h.inject({ method: 'POST', url: '/auth/login/enrol', payload: { challenge } });
    const { secret } = begun.json() as { secret: string };
    const done = await h.inject({
      method: 'POST',
      url: '/auth/login/enrol/confirm',
      payload: { challenge, code: h.codeFor(secret) },
    });
    expect(done.statusCode).toBe(200);
    expect((done.json() as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    const headers = h.cookieOf(done)!;
    expect((await h.inject({ url: '/api/account/two-factor', headers })).json()).toMatchObject({
      enabled: true,
      required: true,
    });
    clock.advance(30_000);
    const off = await h.inject({
      method: 'POST',
      url: '/api/account/two-factor/disable',
      headers,
      payload: { code: h.codeFor(secret) },
    });
    expect(off.statusCode).toBe(409);
    // The next sign-in asks for a code.
    expect((await h.password(user)).json()).toMatchObject({ step: 'code' });
  });
});

describe('a sign-in challenge', () => {
  it('dies after 5 wrong codes (the password must be given again), and after 5 minutes', async () => {
    const clock = manualClock(Date.now());
    const limits = { rateLimit: 100, wsConnections: 1 };
    const accounts = createAccountsService({
      repo: createMemoryAccountsRepository(),
      hasher: fastHasher,
      clock,
      plans: { standard: limits, pro: limits },
      sessionTtlMs: 3_600_000,
      twoFactor: {
        repo: createMemoryTwoFactorRepository(),
        sealer: { seal: (plain, context) => `${context}|${plain}`, open: (sealed) => sealed.split('|')[1]! },
        required: false,
      },
    });
    const { user } = await accounts.createUser({
      email: 'c@example.com',
      role: 'member',
      password: 'long enough pw',
    });
    const { secret } = await accounts.beginTwoFactor(user.id, user.email);
    const code = () =>
      new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
        timestamp: clock.now(),
      });
    await accounts.confirmTwoFactor(user.id, code());
    clock.advance(30_000);
    const codeOf = (error: unknown) => (error instanceof AppError ? error.code : String(error));

    const first = await accounts.signIn(user.email, 'long enough pw');
    if (first.step !== 'code') throw new Error('expected the code step');
    for (let i = 0; i < 5; i++)
      expect(codeOf(await accounts.completeSignIn(first.challenge, 'abcd-efgh').catch((e) => e))).toBe(
        'invalid_code',
      );
    expect(codeOf(await accounts.completeSignIn(first.challenge, code()).catch((e) => e))).toBe(
      'unauthenticated',
    );

    const second = await accounts.signIn(user.email, 'long enough pw');
    if (second.step !== 'code') throw new Error('expected the code step');
    clock.advance(5 * 60_000);
    expect(codeOf(await accounts.completeSignIn(second.challenge, code()).catch((e) => e))).toBe(
      'unauthenticated',
    );

    const third = await accounts.signIn(user.email, 'long enough pw');
    if (third.step !== 'code') throw new Error('expected the code step');
    expect((await accounts.completeSignIn(third.challenge, code())).codeKind).toBe('totp');
  });
});
