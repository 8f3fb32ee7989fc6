import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { type TestProvider, startTestProvider } from '../harness/oidc-provider.ts';

const consoleUrl = 'http://meridian.test';
const people = {
  alice: { email: 'Alice@Example.com', emailVerified: true },
  bob: { email: 'bob@elsewhere.org', emailVerified: true },
  carol: { email: 'carol@example.com', emailVerified: false },
  dana: { email: 'dana@example.com', emailVerified: true },
  erin: { email: 'erin@example.com', emailVerified: true },
};

/** Single sign-on against a real OpenID Connect provider started here (node-oidc-provider). */
describe('single sign-on to the console', () => {
  let idp: TestProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startTestProvider({ redirectUris: [`${consoleUrl}/auth/oidc/callback`], people });
    t = await createTestApp({
      env: {
        MERIDIAN_CONSOLE_URL: consoleUrl,
        MERIDIAN_OIDC_ISSUER: idp.issuer,
        MERIDIAN_OIDC_CLIENT_ID: idp.clientId,
        MERIDIAN_OIDC_CLIENT_SECRET: idp.clientSecret,
        MERIDIAN_OIDC_NAME: 'Example ID',
        MERIDIAN_OIDC_ALLOWED_DOMAINS: 'example.com',
        MERIDIAN_OIDC_DEFAULT_ROLE: 'member',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  /** Start → the provider's pages → callback, as the browser would go; returns the callback's answer. */
  async function signIn(login: string, options: { deny?: boolean; tamper?: (url: URL) => void } = {}) {
    const start = await t.app.inject({ url: '/auth/oidc/start?next=/flows' });
    expect(start.statusCode).toBe(302);
    const flow = start.cookies.find((c) => c.name === 'meridian_sso');
    expect(flow?.httpOnly).toBe(true);
    expect(flow?.sameSite).toBe('Lax');
    const back = await idp.authorize(start.headers.location as string, login, options);
    expect(`${back.origin}${back.pathname}`).toBe(`${consoleUrl}/auth/oidc/callback`);
    options.tamper?.(back);
    return t.app.inject({ url: `${back.pathname}${back.search}`, cookies: { meridian_sso: flow!.value } });
  }

  const sessionOf = (res: { cookies: { name: string; value: string }[] }) =>
    res.cookies.find((c) => c.name === 'meridian_session')?.value;

  it('names the provider on GET /auth/methods, with password sign-in still on', async () => {
    const res = await t.app.inject({ url: '/auth/methods' });
    expect(res.json()).toEqual({
      password: true,
      sso: { name: 'Example ID', available: true, startUrl: '/auth/oidc/start' },
    });
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const start = await t.app.inject({ url: '/auth/oidc/start' });
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${consoleUrl}/auth/oidc/callback`);
  });

  it('creates an account at the first sign-in with the default role, and finds it again by sub', async () => {
    const first = await signIn('alice');
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe('/flows');
    const session = sessionOf(first);
    expect(session).toBeTruthy();
    const account = await t.app.inject({ url: '/api/account', cookies: { meridian_session: session! } });
    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ email: 'alice@example.com', role: 'member', plan: 'standard' });
    const user = await t.container.accounts.findUserByEmail('alice@example.com');
    expect(user?.password_hash).toBeNull();

    const again = await signIn('alice');
    expect(again.statusCode).toBe(302);
    const second = await t.app.inject({
      url: '/api/account',
      cookies: { meridian_session: sessionOf(again)! },
    });
    expect(second.json().id).toBe(account.json().id);
    // A password sign-in cannot reach an account made by single sign-on (it has no password).
    const password = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'alice@example.com', password: '' },
    });
    expect(password.statusCode).toBe(401);
  });

  it('refuses a verified email of a domain not allowed, creating nothing', async () => {
    const res = await signIn('bob');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/sign-in?sso_error=domain_not_allowed');
    expect(sessionOf(res)).toBeUndefined();
    expect(await t.container.accounts.findUserByEmail('bob@elsewhere.org')).toBeUndefined();
  });

  it('refuses an email the provider has not verified', async () => {
    const res = await signIn('carol');
    expect(res.headers.location).toBe('/sign-in?sso_error=email_unverified');
    expect(await t.container.accounts.findUserByEmail('carol@example.com')).toBeUndefined();
  });

  it('links an existing password account with the same verified email, keeping its role and password', async () => {
    await t.container.accounts.createUser({
      email: 'dana@example.com',
      role: 'admin',
      password: 'dana-password-long',
    });
    const res = await signIn('dana');
    expect(res.headers.location).toBe('/flows');
    const account = await t.app.inject({
      url: '/api/account',
      cookies: { meridian_session: sessionOf(res)! },
    });
    expect(account.json()).toMatchObject({ email: 'dana@example.com', role: 'admin' });
    const password = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'dana@example.com', password: 'dana-password-long' },
    });
    expect(password.statusCode).toBe(200);
  });

  it('rejects a callback whose state is not the one the flow started with', async () => {
    const res = await signIn('erin', { tamper: (url) => url.searchParams.set('state', 'forged') });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/sign-in?sso_error=failed');
    expect(sessionOf(res)).toBeUndefined();
    expect(await t.container.accounts.findUserByEmail('erin@example.com')).toBeUndefined();
  });

  it('rejects a callback without the flow cookie, and one whose cookie was altered', async () => {
    const none = await t.app.inject({ url: '/auth/oidc/callback?code=abc&state=xyz' });
    expect(none.headers.location).toBe('/sign-in?sso_error=expired');
    const start = await t.app.inject({ url: '/auth/oidc/start' });
    const flow = start.cookies.find((c) => c.name === 'meridian_sso')!;
    const [value, signature] = [
      flow.value.slice(0, flow.value.lastIndexOf('.')),
      flow.value.slice(flow.value.lastIndexOf('.')),
    ];
    const forged = value.replace(/"next":"[^"]*"/, '"next":"/settings"') + signature;
    const res = await t.app.inject({
      url: '/auth/oidc/callback?code=abc&state=xyz',
      cookies: { meridian_sso: forged },
    });
    expect(res.headers.location).toBe('/sign-in?sso_error=failed');
  });

  it('lands on the sign-in page when the person declines at the provider', async () => {
    const res = await signIn('erin', { deny: true });
    expect(res.headers.location).toBe('/sign-in?sso_error=denied');
  });

  it('keeps a next of URL characters only: a header break is dropped, never a 500', async () => {
    const start = await t.app.inject({ url: '/auth/oidc/start?next=/flows%0d%0aSet-Cookie:%20x=1' });
    expect(start.statusCode).toBe(302);
    const flow = start.cookies.find((c) => c.name === 'meridian_sso')!;
    const back = await idp.authorize(start.headers.location as string, 'alice');
    const res = await t.app.inject({
      url: `${back.pathname}${back.search}`,
      cookies: { meridian_sso: flow.value },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  it('does not follow an absolute next after sign-in', async () => {
    const start = await t.app.inject({ url: '/auth/oidc/start?next=//evil.example/x' });
    const flow = start.cookies.find((c) => c.name === 'meridian_sso')!;
    const back = await idp.authorize(start.headers.location as string, 'alice');
    const res = await t.app.inject({
      url: `${back.pathname}${back.search}`,
      cookies: { meridian_sso: flow.value },
    });
    expect(res.headers.location).toBe('/');
  });
});

describe('password sign-in turned off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MERIDIAN_PASSWORD_SIGNIN: 'false' } });
  });
  afterAll(() => t?.close());

  it('refuses POST /auth/login with a problem document, even with the right password', async () => {
    const user = await t.user('member');
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json().code).toBe('password_sign_in_disabled');
    expect(res.cookies).toHaveLength(0);
    // API tokens are not sign-ins: they still work.
    expect((await t.app.inject({ url: '/api/account', headers: user.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/auth/methods' })).json()).toEqual({ password: false, sso: null });
  });

  it('sends a start without a configured provider back to the sign-in page', async () => {
    const res = await t.app.inject({ url: '/auth/oidc/start' });
    expect(res.headers.location).toBe('/sign-in?sso_error=unavailable');
  });
});

describe('an unreachable provider', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    // A port that was free a moment ago: nothing answers there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    t = await createTestApp({
      env: {
        MERIDIAN_OIDC_ISSUER: `http://127.0.0.1:${port}`,
        MERIDIAN_OIDC_CLIENT_ID: 'meridian',
        MERIDIAN_OIDC_CLIENT_SECRET: 'the-client-secret-that-must-not-leak',
        MERIDIAN_OIDC_ALLOWED_DOMAINS: '*',
        LOG_LEVEL: 'debug',
      },
      container: { logStream: { write: (line: string) => lines.push(line) } },
    });
  });
  afterAll(() => t?.close());

  it('says so on /readyz and /auth/methods, and sends a start back to the sign-in page', async () => {
    const ready = await t.app.inject({ url: '/readyz' });
    const sso = ready.json().components.sso;
    expect(sso.status).toBe('degraded');
    expect(sso.reason).toMatch(/could not be reached/);
    expect(ready.body).not.toContain('the-client-secret-that-must-not-leak');
    const methods = (await t.app.inject({ url: '/auth/methods' })).json();
    expect(methods.sso).toMatchObject({ name: '127.0.0.1', available: false });
    expect(methods.sso.message).toMatch(/cannot be reached/);
    const start = await t.app.inject({ url: '/auth/oidc/start' });
    expect(start.headers.location).toBe('/sign-in?sso_error=unavailable');
    const log = lines.join('');
    expect(log).toMatch(/single sign-on unavailable/);
    expect(log).not.toContain('the-client-secret-that-must-not-leak');
  });
});
