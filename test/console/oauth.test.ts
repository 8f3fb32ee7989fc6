import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../push/client.ts';
import {
  type ConsoleServer,
  artifactsDir,
  chromiumPath,
  ensureConsoleBuilt,
  haveChromium,
  launchChromium,
  startConsoleServer,
  waitFor,
} from './harness.ts';

if (!haveChromium && process.env.MERIDIAN_REQUIRE_SERVICES === '1')
  throw new Error(
    `the OAuth browser suite is required but ${chromiumPath} is missing (apt-get install chromium)`,
  );
if (!haveChromium) console.warn(`skipping the OAuth browser suite: ${chromiumPath} is not installed`);

const email = 'oauth-e2e@example.com';
const password = 'oauth-e2e-password-long';

/**
 * A third-party app's whole PKCE flow against the real server: the person signs in to the console and
 * allows the app on the consent page; the app exchanges the code, calls REST and the push channel with the
 * access token, refreshes, and a replayed refresh token revokes the whole family.
 */
describe.skipIf(!haveChromium)('OAuth authorization code + PKCE in chromium', { timeout: 120_000 }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  const received: URL[] = [];

  beforeAll(async () => {
    ensureConsoleBuilt();
    mkdirSync(artifactsDir, { recursive: true });
    server = await startConsoleServer();
    await server.createUser(email, password);
    // The app's redirect URI: a loopback listener (RFC 8252) noting what the browser brings back.
    callback = createServer((request, response) => {
      received.push(new URL(request.url!, redirectUri));
      response.writeHead(200, { 'content-type': 'text/plain' }).end('back in the app');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    callback?.close();
    await server?.stop();
  });

  const tokenRequest = (fields: Record<string, string>) =>
    fetch(`${server.address}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
  const accountWith = (token: string) =>
    fetch(`${server.address}/api/account`, { headers: { authorization: `Bearer ${token}` } });

  it('signs in, consents, exchanges the code, uses the tokens, and a reused refresh token revokes the family', async () => {
    const added = await server.cli([
      'oauth',
      'clients',
      'add',
      '--name',
      'Chart Studio',
      '--redirect-uri',
      redirectUri,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const clientId = added.stdout.trim();
    expect(clientId).toMatch(/^oac_/);

    const metadata = await (await fetch(`${server.address}/.well-known/oauth-authorization-server`)).json();
    const verifier = randomBytes(48).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'market:read account:read',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(authorize.toString());
    // Not signed in: the console asks first, then comes back to the consent page.
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/authorize/);
    await expect.poll(() => page.getByTestId('oauth-client-name').textContent()).toBe('Chart Studio');
    const scopes = await page.getByRole('list', { name: 'Requested permissions' }).textContent();
    expect(scopes).toContain('market:read');
    expect(scopes).toContain('account:read');
    await page.screenshot({ path: join(artifactsDir, 'oauth-consent.png') });
    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await waitFor('the redirect to the app', async () => received[0], 15_000);

    expect(back.pathname).toBe('/callback');
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.get('iss')).toBe(metadata.issuer);
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: randomBytes(48).toString('base64url'),
      client_id: clientId,
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');

    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(exchanged.status).toBe(200);
    const first = await exchanged.json();
    expect(first.scope).toBe('market:read account:read');

    const account = await accountWith(first.access_token);
    expect(account.status).toBe(200);
    expect((await account.json()).permissions).toEqual(['account:read', 'market:read']);
    const market = await fetch(`${server.address}/api/market-data?symbols=BTCUSDT`, {
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(market.status).toBe(200);

    const wsBase = server.address.replace(/^http/, 'ws');
    const firstSocket = await connect(`${wsBase}/market`, { protocols: ['meridian.v1', first.access_token] });
    expect(firstSocket.ws.protocol).toBe('meridian.v1');
    expect((await firstSocket.next((m) => m.type === 'snapshot', 15_000)).type).toBe('snapshot');

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const second = await refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await accountWith(second.access_token)).status).toBe(200);
    const secondSocket = await connect(`${wsBase}/market`, {
      protocols: ['meridian.v1', second.access_token],
    });
    await secondSocket.next((m) => m.type === 'snapshot', 15_000);

    // The first refresh token again: a replay. The whole family goes: every access token, open sockets too.
    const replay = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await accountWith(second.access_token)).status).toBe(401);
    expect((await accountWith(first.access_token)).status).toBe(401);
    const closed = await Promise.race([
      secondSocket.closed,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000)),
    ]);
    expect(closed, 'the socket of a revoked access token closes').toBeDefined();
    const afterwards = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token,
      client_id: clientId,
    });
    expect((await afterwards.json()).error).toBe('invalid_grant');
    await expect(
      connect(`${wsBase}/market`, { protocols: ['meridian.v1', second.access_token] }),
    ).rejects.toMatchObject({ status: 401 });
    firstSocket.ws.terminate();

    // The Apps page lists a live grant and revokes it: its access token is refused at once.
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      code: await consentAgain(),
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    });
    const third = await again.json();
    expect((await accountWith(third.access_token)).status).toBe(200);
    await page.goto(`${server.address}/settings/apps`);
    const row = page
      .locator('tr', { hasText: 'Chart Studio' })
      .filter({ has: page.getByRole('button', { name: 'Revoke Chart Studio' }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('market:read');
    await row.getByRole('button', { name: 'Revoke Chart Studio' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('No app has access to your account.').waitFor();
    expect((await accountWith(third.access_token)).status).toBe(401);
    await context.close();

    /** The same consent again, in the signed-in page: Allow, and the code the app receives. */
    async function consentAgain() {
      received.length = 0;
      await page.goto(authorize.toString());
      await page.getByRole('button', { name: 'Allow' }).click();
      const url = await waitFor('the second redirect to the app', async () => received[0], 15_000);
      return url.searchParams.get('code')!;
    }
  });
});
