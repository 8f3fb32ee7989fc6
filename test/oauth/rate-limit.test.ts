import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';

const redirectUri = 'https://app.example.com/callback';
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/** The token and revocation endpoints' limits: per client, and per address unless a confidential client authenticated. */
describe('OAuth endpoint rate limits', () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_OAUTH_ADDRESS_RATE_LIMIT: '3', MERIDIAN_OAUTH_CLIENT_RATE_LIMIT: '5' },
    });
    const member = await t.user('member');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: member.email, password: member.password },
    });
    cookie = `meridian_session=${login.cookies.find((c) => c.name === 'meridian_session')!.value}`;
  });
  afterAll(() => t.close());

  async function client(confidential: boolean) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/clients',
      headers: { cookie },
      payload: { name: 'Limited App', redirectUris: [redirectUri], confidential },
    });
    expect(created.statusCode).toBe(201);
    return { id: created.json().client.id as string, secret: created.json().secret as string | null };
  }
  const post = (url: string, from: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress: from,
      headers: formHeaders,
      payload: new URLSearchParams(fields).toString(),
    });
  const refresh = (from: string, fields: Record<string, string>) =>
    post('/oauth/token', from, { grant_type: 'refresh_token', refresh_token: 'mrr_nope', ...fields });

  it('limits an address, then the client across addresses, with an RFC 6749 JSON 429 and Retry-After', async () => {
    const app = await client(false);
    for (let i = 0; i < 3; i++)
      expect((await refresh('198.51.100.1', { client_id: app.id })).json().error).toBe('invalid_grant');
    const refused = await refresh('198.51.100.1', { client_id: app.id });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.headers['cache-control']).toBe('no-store');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringContaining('from this address'),
    });
    // Another address: the client has 5 a minute, 3 of them spent (the refused request took none).
    for (let i = 0; i < 2; i++)
      expect((await refresh('198.51.100.2', { client_id: app.id })).statusCode).toBe(400);
    const full = await refresh('198.51.100.2', { client_id: app.id });
    expect(full.statusCode).toBe(429);
    expect(full.json().error_description).toContain('for this client');
    // Revocation shares the limits; a request naming no client is held by its address alone.
    const revoke = await post('/oauth/revoke', '198.51.100.2', { token: 'mrr_nope', client_id: app.id });
    expect(revoke.statusCode).toBe(429);
    for (let i = 0; i < 3; i++) expect((await refresh('198.51.100.3', {})).statusCode).toBe(401);
    expect((await refresh('198.51.100.3', {})).statusCode).toBe(429);
  });

  it('spares a confidential client that authenticates its address limit, not one sending a wrong secret', async () => {
    const app = await client(true);
    for (let i = 0; i < 5; i++) {
      const answer = await refresh('203.0.113.1', { client_id: app.id, client_secret: app.secret! });
      expect(answer.json().error).toBe('invalid_grant'); // authenticated, past the address limit of 3
    }
    expect((await refresh('203.0.113.1', { client_id: app.id, client_secret: app.secret! })).statusCode).toBe(
      429,
    ); // its client limit of 5
    const other = await client(true);
    for (let i = 0; i < 3; i++)
      expect((await refresh('203.0.113.2', { client_id: other.id, client_secret: 'wrong' })).statusCode).toBe(
        401,
      );
    const refused = await refresh('203.0.113.2', { client_id: other.id, client_secret: 'wrong' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error_description).toContain('from this address');
  });
});
