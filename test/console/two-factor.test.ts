import { Secret, TOTP } from 'otpauth';
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

const email = 'two-factor-e2e@example.com';
const password = 'e2e-password-that-is-long';

/** Two-factor sign-in and the audit log in the console, in chromium against the real server. */
describe.skipIf(!haveChromium)('console: two-factor sign-in and the audit log', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureConsoleBuilt();
    server = await startConsoleServer();
    await server.createUser(email, password, { role: 'admin' });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({
      baseURL: server.address,
      viewport: { width: 1280, height: 900 },
    });
    return context.newPage();
  };
  const passwordStep = async (page: Page) => {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('enrols on the account page, signs in with a recovery code, and shows both in the audit log', async () => {
    const page = await newPage();
    await passwordStep(page);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/settings/keys');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const code = new TOTP({
      secret: Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    }).generate();
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.locator('.recovery-codes li code');
    await codes.first().waitFor();
    const recoveryCodes = await codes.allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have stored them' }).click();
    await page.getByText('10 recovery codes left').waitFor();

    const second = await newPage();
    await passwordStep(second);
    await second.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await second
      .getByRole('textbox', { name: 'Code from your app, or a recovery code' })
      .fill(recoveryCodes[0]!);
    await second.getByRole('button', { name: 'Continue' }).click();
    await second.waitForURL((url) => url.pathname === '/');

    await second.getByRole('link', { name: 'Audit log' }).click();
    const table = second.locator('table.audit-table');
    await table.getByText('two_factor.recovery_code_use').waitFor();
    await expect(table.getByText('two_factor.enrol').count()).resolves.toBe(1);
    await second.getByLabel('Action').selectOption('two_factor.enrol');
    await second.getByRole('button', { name: 'Apply' }).click();
    await second.waitForFunction(
      () => document.querySelectorAll('table.audit-table tbody tr').length === 1,
      undefined,
      { timeout: 10_000 },
    );
    await expect(table.locator('tbody tr').first().textContent()).resolves.toContain('two_factor.enrol');
  });
});
