import { createHash, randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/main/operator-commands.ts';
import { AUDIT_ACTIONS } from '../../src/modules/audit/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { webhookEnv } from '../webhooks/harness.ts';

interface Entry {
  id: string;
  at: string;
  action: string;
  outcome: 'success' | 'failure';
  actorId: string | null;
  credential: string;
  address: string | null;
  target: string | null;
  detail: Record<string, unknown> | null;
}

const T0 = Date.UTC(2026, 10, 1, 12);

/** Every security-relevant action leaves one audit entry, and only administrators read them. */
describe('the audit log', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  const clock = manualClock(T0);
  const address = '203.0.113.7';
  beforeAll(async () => {
    t = await createTestApp({
      container: { clock },
      env: { ...webhookEnv, MERIDIAN_RATE_LIMIT_STANDARD: '100000' },
    });
    admin = await t.user('admin');
    member = await t.user('member');
  });
  afterAll(() => t.close());

  const inject = (options: InjectOptions) => t.app.inject({ remoteAddress: address, ...options });
  const asMember = (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    inject({ method, url, headers: member.auth, ...(payload === undefined ? {} : { payload }) });
  const entries = async (query = ''): Promise<Entry[]> => {
    const res = await inject({ url: `/api/audit-log?limit=200${query}`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Entry[] }).data;
  };
  const codeFor = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: clock.now(),
    });

  it('records each listed action with actor, credential, address, time, target and outcome', async () => {
    const login = (password: string) =>
      inject({ method: 'POST', url: '/auth/login', payload: { email: member.email, password } });
    expect((await login('wrong password!')).statusCode).toBe(401);
    const signedIn = await login(member.password);
    const cookie = `meridian_session=${signedIn.cookies.find((c) => c.name === 'meridian_session')!.value}`;
    const session = { cookie };

    const token = await inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: session,
      payload: { name: 'ci' },
    });
    const tokenId = token.json().details.id as string;
    const rotated = await inject({
      method: 'POST',
      url: `/api/account/tokens/${tokenId}/rotate`,
      headers: session,
    });
    await inject({
      method: 'DELETE',
      url: `/api/account/tokens/${rotated.json().details.id}`,
      headers: session,
    });

    const webhook = await asMember('POST', '/api/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['alert.triggered'],
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    await asMember('POST', `/api/webhooks/${webhook.json().id}/rotate`);
    await asMember('DELETE', `/api/webhooks/${webhook.json().id}`);
    const channel = await asMember('POST', '/api/alert-channels', {
      type: 'telegram',
      botToken: '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678',
      chatId: '-1001234',
    });
    expect(channel.statusCode, channel.body).toBe(201);
    await asMember('POST', `/api/alert-channels/${channel.json().id}/verify`, { code: '000000' });
    const testSend = await asMember('POST', `/api/alert-channels/${channel.json().id}/test`);
    expect(testSend.statusCode, testSend.body).toBe(202);
    await asMember('DELETE', `/api/alert-channels/${channel.json().id}`);
    const rule = await asMember('POST', '/api/alerts', {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1e9 },
    });
    await asMember('DELETE', `/api/alerts/${rule.json().id}`);
    const label = await asMember('POST', '/api/labels', {
      kind: 'fund',
      chain: 'Ethereum',
      address: '0x1111111111111111111111111111111111111111',
      name: 'Acme',
    });
    expect(label.statusCode, label.body).toBe(201);
    await asMember('DELETE', `/api/labels/${label.json().id}`);
    const imported = await inject({
      method: 'POST',
      url: '/api/portfolio/import',
      headers: { ...member.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({
        rows: [
          { asset: 'ETH', quantity: '1' },
          { asset: 'BTC', quantity: '0.5' },
        ],
      }),
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const rows = await inject({ url: '/api/portfolio/rows', headers: member.auth });
    await asMember('DELETE', `/api/portfolio/rows/${rows.json().data[0].id}`);
    await asMember('DELETE', '/api/portfolio');

    const begun = await inject({ method: 'POST', url: '/api/account/two-factor', headers: session });
    const { secret } = begun.json() as { secret: string };
    const confirmed = await inject({
      method: 'POST',
      url: '/api/account/two-factor/confirm',
      headers: session,
      payload: { code: codeFor(secret) },
    });
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    const { challenge } = (await login(member.password)).json() as { challenge: string };
    expect(
      (await inject({ method: 'POST', url: '/auth/login/code', payload: { challenge, code: 'zzzz-zzzz' } }))
        .statusCode,
    ).toBe(400);
    const second = await inject({
      method: 'POST',
      url: '/auth/login/code',
      payload: { challenge, code: recoveryCodes[0] },
    });
    expect(second.statusCode).toBe(200);
    clock.advance(30_000);
    await inject({
      method: 'POST',
      url: '/api/account/two-factor/disable',
      headers: session,
      payload: { code: codeFor(secret) },
    });
    expect((await inject({ method: 'POST', url: '/auth/logout', headers: session })).statusCode).toBe(204);

    const created = await runOperatorCommand(t.container, [
      'users',
      'create',
      '--email',
      'ops@example.com',
      '--role',
      'viewer',
    ]);
    expect(created.code).toBe(0);
    await runOperatorCommand(t.container, [
      'users',
      'set-role',
      '--email',
      'ops@example.com',
      '--role',
      'member',
    ]);
    await runOperatorCommand(t.container, [
      'users',
      'set-plan',
      '--email',
      'ops@example.com',
      '--plan',
      'pro',
    ]);

    // OAuth: a client registered, a grant issued at the code exchange, revoked by its account, the client deleted.
    const oauth = t.container.oauth;
    const principal = await t.container.accounts.authenticateToken(member.token);
    const redirectUri = 'https://app.example/cb';
    const { client } = await oauth.registerClient(member.id, {
      name: 'Audited app',
      redirectUris: [redirectUri],
      confidential: false,
    });
    const verifier = randomBytes(40).toString('base64url');
    const authorization = {
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirectUri,
      scope: 'market:read',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    const { redirectTo } = await oauth.decideAuthorization(
      authorization,
      principal,
      'http://localhost',
      true,
    );
    const oauthTokens = await oauth.token(
      {
        grant_type: 'authorization_code',
        code: new URL(redirectTo).searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      { clientId: client.id },
    );
    const [grant] = await oauth.listGrants(member.id);
    await oauth.revokeGrant(member.id, grant!.id);
    await oauth.deleteClient(member.id, client.id);

    // Organizations: created, renamed, an invitation withdrawn and one accepted, a role changed, ownership
    // handed over, a member removed, and the old owner leaving.
    // Sessions opened through the service: no further sign-in entries in the log.
    const sessionOf = async (user: TestUser) => {
      const signed = await t.container.accounts.signIn(user.email, user.password);
      if (signed.step !== 'done') throw new Error('expected a session');
      return { cookie: `meridian_session=${signed.sessionId}` };
    };
    const founder = await t.user('member');
    const joiner = await t.user('member');
    const [founderSession, joinerSession] = [await sessionOf(founder), await sessionOf(joiner)];
    const orgCall = (
      headers: { cookie: string },
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: object,
    ) => inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const org = (await orgCall(founderSession, 'POST', '/api/organizations', { name: 'Desk' })).json();
    const base = `/api/organizations/${org.id}`;
    await orgCall(founderSession, 'PATCH', base, { name: 'Trading desk' });
    const dropped = (await orgCall(founderSession, 'POST', `${base}/invitations`, { role: 'viewer' })).json();
    await orgCall(founderSession, 'DELETE', `${base}/invitations/${dropped.details.id}`);
    const kept = (await orgCall(founderSession, 'POST', `${base}/invitations`, { role: 'viewer' })).json();
    await orgCall(joinerSession, 'POST', '/api/invitations/accept', { token: kept.token });
    await orgCall(founderSession, 'PATCH', `${base}/members/${joiner.id}`, { role: 'member' });
    const third = await t.user('member');
    const thirdInvite = (
      await orgCall(founderSession, 'POST', `${base}/invitations`, { role: 'member' })
    ).json();
    await orgCall(await sessionOf(third), 'POST', '/api/invitations/accept', { token: thirdInvite.token });
    await orgCall(founderSession, 'DELETE', `${base}/members/${third.id}`);
    await orgCall(founderSession, 'POST', `${base}/transfer`, { userId: joiner.id });
    expect((await orgCall(founderSession, 'DELETE', `${base}/members/${founder.id}`)).statusCode).toBe(204);
    const planned = await runOperatorCommand(t.container, [
      'orgs',
      'set-plan',
      '--id',
      org.id,
      '--plan',
      'pro',
    ]);
    expect(planned.code).toBe(0);

    const log = await entries();
    const seen = new Set(log.map((e) => e.action));
    expect([...AUDIT_ACTIONS].filter((a) => !seen.has(a))).toEqual([]);
    const one = (action: string, outcome = 'success') => {
      const found = log.filter((e) => e.action === action && e.outcome === outcome);
      expect(found, `${action} ${outcome}`).toHaveLength(1);
      return found[0]!;
    };
    expect(one('auth.sign_in', 'failure')).toMatchObject({
      actorId: null,
      credential: 'password',
      address,
      target: `email:${member.email}`,
      at: new Date(T0).toISOString(),
    });
    expect(log.filter((e) => e.action === 'auth.sign_in' && e.outcome === 'success')).toHaveLength(2);
    expect(one('token.create')).toMatchObject({
      actorId: member.id,
      credential: 'session',
      address,
      target: `token:${tokenId}`,
    });
    expect(one('token.rotate').target).toBe(`token:${tokenId}`);
    expect(one('webhook.create')).toMatchObject({
      actorId: member.id,
      credential: 'token',
      target: `webhook:${webhook.json().id}`,
    });
    expect(one('portfolio.import').detail).toEqual({ rows: 2, format: 'json' });
    expect(one('portfolio.delete').detail).toEqual({ rows: 1 });
    expect(one('auth.two_factor', 'failure')).toMatchObject({ actorId: member.id, credential: 'password' });
    expect(one('two_factor.recovery_code_use')).toMatchObject({ actorId: member.id });
    expect(one('two_factor.disable')).toMatchObject({ credential: 'session' });
    expect(one('auth.sign_out')).toMatchObject({ actorId: member.id, credential: 'session' });
    expect(one('user.role_change')).toMatchObject({
      actorId: null,
      credential: 'operator',
      address: null,
      detail: { role: 'member' },
    });
    expect(one('user.plan_change').detail).toMatchObject({ plan: 'pro' });
    expect(one('oauth.client_create')).toMatchObject({
      actorId: member.id,
      target: `oauth_client:${client.id}`,
    });
    expect(one('oauth.grant')).toMatchObject({
      actorId: member.id,
      target: `oauth_grant:${grant!.id}`,
      detail: { client: client.id, scopes: 'market:read' },
    });
    expect(log.find((e) => e.action === 'oauth.grant_revoke')).toMatchObject({
      target: `oauth_grant:${grant!.id}`,
      detail: { reason: 'user' },
    });
    expect(one('oauth.client_delete').target).toBe(`oauth_client:${client.id}`);
    // Secrets appear nowhere: not the password, the TOTP secret, recovery codes or the token.
    const text = JSON.stringify(log);
    for (const secretText of [
      member.password,
      secret,
      ...recoveryCodes,
      token.json().token as string,
      oauthTokens.access_token,
      oauthTokens.refresh_token,
    ])
      expect(text).not.toContain(secretText);
  });

  it('filters by action, actor and time, and pages with a cursor, newest first', async () => {
    const byAction = await entries('&action=token.create');
    expect(byAction.length).toBeGreaterThan(0);
    expect(byAction.every((e) => e.action === 'token.create')).toBe(true);
    const byActor = await entries(`&actor=${member.id}`);
    expect(byActor.length).toBeGreaterThan(5);
    expect(byActor.every((e) => e.actorId === member.id)).toBe(true);

    clock.set(T0 + 3_600_000);
    await runOperatorCommand(t.container, [
      'users',
      'set-plan',
      '--email',
      'ops@example.com',
      '--plan',
      'standard',
    ]);
    const later = await entries(`&from=${new Date(T0 + 3_600_000).toISOString()}`);
    expect(later.map((e) => e.action)).toEqual(['user.plan_change']);
    const before = await entries(`&to=${new Date(T0 + 3_600_000).toISOString()}`);
    expect(before.some((e) => e.at === new Date(T0 + 3_600_000).toISOString())).toBe(false);

    const all = await entries();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await inject({
        url: `/api/audit-log?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        headers: admin.auth,
      });
      const page = res.json() as { data: Entry[]; nextCursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
    const times = all.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('exports every match as JSON lines (Accept header or format=jsonl)', async () => {
    const all = await entries(`&actor=${member.id}`);
    for (const headers of [{ ...admin.auth, accept: 'application/x-ndjson' }, admin.auth]) {
      const query = 'accept' in headers ? '' : '&format=jsonl';
      const res = await inject({ url: `/api/audit-log?limit=1&actor=${member.id}${query}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/x-ndjson');
      const lines = res.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Entry);
      expect(lines).toEqual(all);
    }
  });

  it('answers only administrators, and problem documents for bad filters', async () => {
    const forbidden = await inject({ url: '/api/audit-log', headers: member.auth });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['content-type']).toContain('application/problem+json');
    expect((await inject({ url: '/api/audit-log' })).statusCode).toBe(401);
    const badAction = await inject({ url: '/api/audit-log?action=nope', headers: admin.auth });
    expect(badAction.statusCode).toBe(400);
    const badCursor = await inject({ url: '/api/audit-log?cursor=abc', headers: admin.auth });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().errors[0].pointer).toBe('/query/cursor');
    const reversed = await inject({
      url: `/api/audit-log?from=${new Date(T0 + 1).toISOString()}&to=${new Date(T0).toISOString()}`,
      headers: admin.auth,
    });
    expect(reversed.statusCode).toBe(400);
  });
});
