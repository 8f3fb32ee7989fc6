import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleServer,
  chromiumPath,
  ensureConsoleBuilt,
  haveChromium,
  launchChromium,
  startConsoleServer,
} from './harness.ts';

if (!haveChromium && process.env.MERIDIAN_REQUIRE_SERVICES === '1')
  throw new Error(`the console browser suite is required but ${chromiumPath} is missing`);

const password = 'e2e-password-that-is-long';
const owner = 'org-owner-e2e@example.com';
const invitee = 'org-invitee-e2e@example.com';

/** The Organization page: create an organization, invite by link (shown once), accept it as another account. */
describe.skipIf(!haveChromium)('console: organizations', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startConsoleServer({ MERIDIAN_BUS_PREFIX: `orgs-console-${process.pid}` });
    await server.createUser(owner, password);
    await server.createUser(invitee, password);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (email: string): Promise<Page> => {
    const context = await browser.newContext({
      baseURL: server.address,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    return page;
  };

  it('creates an organization, invites with a link shown once, and the invitee joins from the link', async () => {
    const page = await signedIn(owner);
    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByLabel('New organization').fill('Research desk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /Members of Research desk/ }).waitFor();
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Create link' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!.trim();
    expect(secret).toMatch(/^mi_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(page.getByTestId('new-secret').count()).resolves.toBe(0);
    await page.getByText('anyone with the link as member').waitFor();

    // The link opens the page directly (the server answers it with the console).
    const other = await signedIn(invitee);
    await other.goto(`/organization#invitation=${secret}`);
    await other.getByRole('button', { name: 'Accept the invitation' }).click();
    await other.getByText('You joined Research desk as member.').waitFor();
    await other.getByRole('heading', { name: /Members of Research desk/ }).waitFor();
    const rows = other.locator('table.data tbody tr');
    // While the members load the table shows two skeleton rows; wait for the real ones.
    await rows.filter({ hasText: invitee }).waitFor();
    await expect(rows.count()).resolves.toBe(2);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining(owner),
      expect.stringContaining(invitee),
    ]);
  });
});
