import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/main/operator-commands.ts';
import { s256 } from '../../src/modules/oauth/index.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

const redirectUri = 'https://app.example.com/callback';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/** The wire format of the OAuth endpoints: RFC 6749 errors as JSON, forms, Basic, the consent routes. */
describe('OAuth endpoints over HTTP', () => {
  let t: TestApp;
  let member: TestUser;
  let cookie: string;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp();
    member = await t.user('member');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: member.email, password: member.password },
    });
    cookie = `meridian_session=${login.cookies.find((c) => c.name === 'meridian_session')!.value}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/clients',
      headers: { cookie },
      payload: { name: 'Chart App', redirectUris: [redirectUri] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().secret).toBeNull();
    clientId = created.json().client.id;
  });
  afterAll(() => t.close());

  const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...formHeaders, ...headers },
      payload: form(fields),
    });

  async function authorize(verifier: string, scope = 'market:read account:read') {
    const query = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      state: 'xyz',
      code_challenge: s256(verifier),
      code_challenge_method: 'S256',
    };
    const check = await t.app.inject({
      url: `/api/oauth/authorize?${new URLSearchParams(query)}`,
      headers: { cookie },
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ outcome: 'consent', client: { id: clientId, name: 'Chart App' } });
    const decided = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/authorize',
      headers: { cookie },
      payload: { ...query, decision: 'allow' },
    });
    expect(decided.statusCode).toBe(200);
    return new URL(decided.json().redirectTo).searchParams.get('code')!;
  }

  it('publishes the server metadata (RFC 8414) with S256 only', async () => {
    const res = await t.app.inject({
      url: '/.well-known/oauth-authorization-server',
      headers: { host: 'localhost:8080' },
    });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.issuer).toBe('http://localhost:8080');
    expect(doc.token_endpoint).toBe(`${doc.issuer}/oauth/token`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.scopes_supported).toContain('market:read');
  });

  it('a code exchanged for tokens: the access token calls the API with the granted scopes, not more', async () => {
    const verifier = randomBytes(40).toString('base64url');
    const res = await token({
      grant_type: 'authorization_code',
      code: await authorize(verifier),
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    const auth = { authorization: `Bearer ${body.access_token}` };
    const account = await t.app.inject({ url: '/api/account', headers: auth });
    expect(account.statusCode).toBe(200);
    expect(account.json().permissions).toEqual(['account:read', 'market:read']);
    const outside = await t.app.inject({ url: '/api/portfolio', headers: auth });
    expect(outside.statusCode).toBe(403);
    // An access token cannot manage clients, tokens or grants (console session only).
    const clients = await t.app.inject({ url: '/api/oauth/clients', headers: auth });
    expect(clients.statusCode).toBe(403);

    const revoked = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: formHeaders,
      payload: form({ token: body.access_token, client_id: clientId }),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/account', headers: auth })).statusCode).toBe(401);
  });

  it('answers errors as RFC 6749 JSON, not problem documents', async () => {
    const wrongGrant = await token({ grant_type: 'password', client_id: clientId });
    expect(wrongGrant.statusCode).toBe(400);
    expect(wrongGrant.headers['content-type']).toMatch(/^application\/json/);
    expect(wrongGrant.json()).toEqual({
      error: 'unsupported_grant_type',
      error_description: expect.any(String),
    });

    const json = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_request');

    const twice = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: formHeaders,
      payload: 'grant_type=refresh_token&grant_type=authorization_code',
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: 'invalid_request' });

    const unknownClient = await token(
      { grant_type: 'refresh_token', refresh_token: 'mrr_x' },
      { authorization: `Basic ${Buffer.from('oac_nobody:secret').toString('base64')}` },
    );
    expect(unknownClient.statusCode).toBe(401);
    expect(unknownClient.json().error).toBe('invalid_client');
    expect(unknownClient.headers['www-authenticate']).toMatch(/^Basic/);

    const badCode = await token({
      grant_type: 'authorization_code',
      code: 'nope',
      redirect_uri: redirectUri,
      code_verifier: randomBytes(40).toString('base64url'),
      client_id: clientId,
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().error).toBe('invalid_grant');
  });

  it('shows an unregistered redirect URI to the person as a problem, never as a redirect', async () => {
    const res = await t.app.inject({
      url: `/api/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: 'https://evil.example/cb', response_type: 'code' })}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json().detail).toContain('not registered');
  });

  it('lists the apps an account authorized, and revoking one ends its tokens', async () => {
    const verifier = randomBytes(40).toString('base64url');
    const res = await token({
      grant_type: 'authorization_code',
      code: await authorize(verifier, 'market:read'),
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    });
    const grants = await t.app.inject({ url: '/api/oauth/grants', headers: { cookie } });
    const grant = grants.json().data.find((g: { scopes: string[] }) => g.scopes.join() === 'market:read');
    expect(grant.client.name).toBe('Chart App');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/oauth/grants/${grant.id}`,
      headers: { cookie },
    });
    expect(del.statusCode).toBe(204);
    const after = await t.app.inject({
      url: '/api/account',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('registers, lists and deletes clients from the operator CLI (secret printed once, on standard output)', async () => {
    const added = await runOperatorCommand(t.container, [
      'oauth',
      'clients',
      'add',
      '--name',
      'CLI App',
      '--redirect-uri',
      redirectUri,
      '--redirect-uri',
      'http://127.0.0.1:8765/cb',
      '--confidential',
    ]);
    expect(added.code).toBe(0);
    const [id, secret] = added.out;
    expect(id).toMatch(/^oac_/);
    expect(secret).toMatch(/^mrc_/);
    expect(added.err.join()).not.toContain(secret);
    const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    // Authenticated: the refusal is about the grant, not the client.
    const res = await token(
      { grant_type: 'refresh_token', refresh_token: 'mrr_unknown' },
      { authorization: basic },
    );
    expect(res.json().error).toBe('invalid_grant');

    const list = await runOperatorCommand(t.container, ['oauth', 'clients', 'list']);
    expect(list.out.join('\n')).toContain(`${id}\tconfidential\toperator\tCLI App`);
    expect(list.out.join('\n')).not.toContain(secret);

    const bad = await runOperatorCommand(t.container, [
      'oauth',
      'clients',
      'add',
      '--name',
      'x',
      '--redirect-uri',
      'https://*.example.com',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.err.join()).toContain('wildcard');

    const deleted = await runOperatorCommand(t.container, ['oauth', 'clients', 'delete', '--id', id!]);
    expect(deleted.code).toBe(0);
    const gone = await token(
      { grant_type: 'refresh_token', refresh_token: 'mrr_unknown' },
      { authorization: basic },
    );
    expect(gone.statusCode).toBe(401);
  });

  it('an access token works on /mcp with the granted scopes, and not after revocation', async () => {
    const verifier = randomBytes(40).toString('base64url');
    const issued = (
      await token({
        grant_type: 'authorization_code',
        code: await authorize(verifier, 'market:read account:read'),
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: clientId,
      })
    ).json();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const connect = async (bearer: string) => {
      const client = new Client({ name: 'oauth-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${bearer}` } },
        }),
      );
      return client;
    };
    const client = await connect(issued.access_token);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('get_market_data');
      const refused = (await client.callTool({ name: 'get_portfolio', arguments: {} })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toContain('portfolio:read');
    } finally {
      await client.close();
    }
    await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: formHeaders,
      payload: form({ token: issued.refresh_token, client_id: clientId }),
    });
    await expect(connect(issued.access_token)).rejects.toThrow();
  });
});
