import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestProvider, startTestProvider } from '../harness/oidc-provider.ts';
import {
  type ConsoleServer,
  chromiumPath,
  ensureConsoleBuilt,
  haveChromium,
  launchChromium,
  startConsoleServer,
} from './harness.ts';

if (!haveChromium && process.env.MERIDIAN_REQUIRE_SERVICES === '1')
  throw new Error(`the console SSO browser suite is required but ${chromiumPath} is missing`);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * Single sign-on through the console's button, in chromium, against `meridian serve` and a real OpenID
 * Connect provider (node-oidc-provider) on another site (`localhost` vs the console's 127.0.0.1), so the
 * provider's redirect back is a cross-site navigation as in production. Password sign-in is off here.
 */
describe.skipIf(!haveChromium)('console single sign-on in chromium', { timeout: 120_000 }, () => {
  let idp: TestProvider;
  let server: ConsoleServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ensureConsoleBuilt();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    idp = await startTestProvider({
      hostName: 'localhost',
      redirectUris: [`${origin}/auth/oidc/callback`],
      people: {
        alice: { email: 'alice@example.com', emailVerified: true },
        mallory: { email: 'mallory@elsewhere.org', emailVerified: true },
      },
    });
    server = await startConsoleServer({
      PORT: String(port),
      MERIDIAN_PASSWORD_SIGNIN: 'false',
      MERIDIAN_OIDC_ISSUER: idp.issuer,
      MERIDIAN_OIDC_CLIENT_ID: idp.clientId,
      MERIDIAN_OIDC_CLIENT_SECRET: idp.clientSecret,
      MERIDIAN_OIDC_NAME: 'Example ID',
      MERIDIAN_OIDC_ALLOWED_DOMAINS: 'example.com',
    });
    expect(server.address).toBe(origin);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.address });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    return page;
  }

  /** From the console's button through the provider's login and consent pages. */
  async function signInAt(page: Page, login: string) {
    await page.goto('/flows');
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
    await page.waitForURL((url) => url.hostname === 'localhost');
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('hides the password form and signs in through the provider, landing where the person was going', async () => {
    const page = await newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Sign in with Example ID' }).waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);

    await signInAt(page, 'alice');
    await page.waitForURL((url) => url.origin === server.address && url.pathname === '/flows');
    // Signed in: the console's own calls carry the session (the account is the one just created).
    const account = await page.evaluate(async () => (await fetch('/api/account')).json());
    expect(account).toMatchObject({
      email: 'alice@example.com',
      role: 'viewer',
      authenticatedWith: 'session',
    });
  });

  it('brings a refused domain back to the sign-in page with a sentence saying why', async () => {
    const page = await newPage();
    await signInAt(page, 'mallory');
    await page.waitForURL(/\/sign-in\?sso_error=domain_not_allowed/);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email domain may not sign in/);
    const status = await page.evaluate(async () => (await fetch('/api/account')).status);
    expect(status).toBe(401);
  });
});
