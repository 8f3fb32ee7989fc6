import type { AuditEntry, AuditLog } from '../../src/modules/audit/index.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type AccountsService,
  createAccountsService,
  createKyselyAccountsRepository,
} from '../../src/modules/accounts/index.ts';
import {
  type OAuthService,
  createKyselyOAuthRepository,
  createOAuthService,
  OAuthError,
  s256,
} from '../../src/modules/oauth/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase } from '../harness/db.ts';

const issuer = 'https://meridian.example';
const redirectUri = 'https://app.example.com/callback';
const plans = { standard: { rateLimit: 120, wsConnections: 5 }, pro: { rateLimit: 1200, wsConnections: 50 } };

/** The authorization server over real storage (PGlite), driven by a clock the tests move. */
describe('OAuth authorization server: codes, PKCE, refresh rotation, revocation', () => {
  const clock = manualClock(Date.UTC(2026, 5, 1));
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let accounts: AccountsService;
  let oauth: OAuthService;
  let approver: { userId: string; permissions: ReadonlySet<string> };
  let clientId: string;
  let confidential: { id: string; secret: string };
  const audited: AuditEntry[] = [];
  const audit: AuditLog = {
    record: async (entry) => {
      audited.push(entry);
    },
  };

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    accounts = createAccountsService({
      repo: createKyselyAccountsRepository(tablesOf(db.db)),
      hasher: fastHasher,
      clock,
      plans,
      sessionTtlMs: 3_600_000,
    });
    oauth = createOAuthService({
      repo: createKyselyOAuthRepository(tablesOf(db.db)),
      accounts,
      clock,
      audit,
      options: { accessTokenTtlMs: 600_000, refreshTokenTtlMs: 30 * 86_400_000, codeTtlMs: 60_000 },
    });
    const { user } = await accounts.createUser({
      email: 'oauth-owner@example.com',
      role: 'member',
      password: 'pw-123456789',
    });
    const signedIn = await accounts.signIn('oauth-owner@example.com', 'pw-123456789');
    if (signedIn.step !== 'done')
      throw new Error('the owner has no second factor: sign-in completes at once');
    approver = { userId: user.id, permissions: signedIn.principal.permissions };
    clientId = (
      await oauth.registerClient(null, {
        name: 'Chart App',
        redirectUris: [redirectUri],
        confidential: false,
      })
    ).client.id;
    const conf = await oauth.registerClient(user.id, {
      name: 'Server App',
      redirectUris: [redirectUri],
      confidential: true,
    });
    confidential = { id: conf.client.id, secret: conf.secret! };
  });
  afterAll(() => db?.close());
  beforeEach(() => clock.advance(1_000));

  const verifier = () => randomBytes(48).toString('base64url');
  const request = (v: string, extra: Record<string, string> = {}) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'market:read predictions:read',
    state: 'st-123',
    code_challenge: s256(v),
    code_challenge_method: 'S256',
    ...extra,
  });
  async function codeFor(v: string, extra: Record<string, string> = {}) {
    const { redirectTo } = await oauth.decideAuthorization(
      request(v, extra),
      approver as never,
      issuer,
      true,
    );
    const url = new URL(redirectTo);
    expect(url.searchParams.get('state')).toBe('st-123');
    expect(url.searchParams.get('iss')).toBe(issuer);
    return url.searchParams.get('code')!;
  }
  const exchange = (code: string, v: string, extra: Record<string, string> = {}) =>
    oauth.token(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: v, ...extra },
      { clientId: extra.client_id ?? clientId },
    );
  async function refused(work: Promise<unknown>, error: string, text?: RegExp) {
    const caught = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(caught).toBeInstanceOf(OAuthError);
    expect((caught as OAuthError).error).toBe(error);
    if (text) expect((caught as OAuthError).message).toMatch(text);
  }

  it('issues tokens for a code and its verifier; the access token acts with the granted scopes only', async () => {
    const v = verifier();
    const tokens = await exchange(await codeFor(v), v);
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 600,
      scope: 'market:read predictions:read',
    });
    expect(tokens.refresh_token).toMatch(/^mrr_/);
    const principal = await accounts.authenticateToken(tokens.access_token);
    expect([...principal.permissions].sort()).toEqual(['market:read', 'predictions:read']);
    // Not one of the account's own API tokens: neither listed nor counted against the plan's cap.
    expect(await accounts.listTokens(approver.userId)).toEqual([]);
  });

  it('refuses a wrong verifier, and the code still works with the right one', async () => {
    const v = verifier();
    const code = await codeFor(v);
    await refused(exchange(code, verifier()), 'invalid_grant', /code_verifier/);
    await expect(exchange(code, v)).resolves.toHaveProperty('access_token');
  });

  it('sends the plain method and a missing challenge back to the client as invalid_request, issuing no code', async () => {
    const v = verifier();
    const requests: Record<string, string>[] = [
      { code_challenge_method: 'plain', code_challenge: v.slice(0, 43) },
      { code_challenge: '' },
    ];
    for (const extra of requests) {
      const { redirectTo } = await oauth.decideAuthorization(
        request(v, extra),
        approver as never,
        issuer,
        true,
      );
      const url = new URL(redirectTo);
      expect(url.origin + url.pathname).toBe(redirectUri);
      expect(url.searchParams.get('error')).toBe('invalid_request');
      expect(url.searchParams.get('code')).toBeNull();
      expect(url.searchParams.get('state')).toBe('st-123');
    }
  });

  it('never redirects to an unregistered redirect URI (a near miss included): the person sees the error', async () => {
    const v = verifier();
    for (const uri of [`${redirectUri}/`, `${redirectUri}?x=1`, 'https://evil.example/callback']) {
      await expect(
        oauth.decideAuthorization(request(v, { redirect_uri: uri }), approver as never, issuer, true),
      ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('not registered') });
    }
  });

  it('refuses a token request whose redirect_uri differs from the authorization request', async () => {
    const other = 'https://app.example.com/other';
    const multi = await oauth.registerClient(null, {
      name: 'Two callbacks',
      redirectUris: [redirectUri, other],
      confidential: false,
    });
    const v = verifier();
    const { redirectTo } = await oauth.decideAuthorization(
      request(v, { client_id: multi.client.id }),
      approver as never,
      issuer,
      true,
    );
    const code = new URL(redirectTo).searchParams.get('code')!;
    await refused(
      oauth.token(
        { grant_type: 'authorization_code', code, redirect_uri: other, code_verifier: v },
        { clientId: multi.client.id },
      ),
      'invalid_grant',
      /redirect_uri/,
    );
  });

  it('refuses an expired code', async () => {
    const v = verifier();
    const code = await codeFor(v);
    clock.advance(60_001);
    await refused(exchange(code, v), 'invalid_grant', /expired/);
  });

  it('refuses a code used twice, and revokes the tokens issued for it', async () => {
    const v = verifier();
    const code = await codeFor(v);
    const first = await exchange(code, v);
    await refused(exchange(code, v), 'invalid_grant', /used already/);
    await expect(accounts.authenticateToken(first.access_token)).rejects.toMatchObject({
      code: 'invalid_token',
    });
    await refused(
      oauth.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, { clientId }),
      'invalid_grant',
    );
  });

  it('refuses a code presented by another client', async () => {
    const v = verifier();
    const code = await codeFor(v);
    await refused(
      oauth.token(
        { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: v },
        { clientId: confidential.id, clientSecret: confidential.secret },
      ),
      'invalid_grant',
    );
  });

  it('rotates refresh tokens; reusing an old one revokes the whole family', async () => {
    const v = verifier();
    const first = await exchange(await codeFor(v), v);
    const second = await oauth.token(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { clientId },
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(accounts.authenticateToken(second.access_token)).resolves.toBeDefined();
    await refused(
      oauth.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, { clientId }),
      'invalid_grant',
      /revoked/,
    );
    for (const access of [first.access_token, second.access_token])
      await expect(accounts.authenticateToken(access)).rejects.toMatchObject({ code: 'invalid_token' });
    await refused(
      oauth.token({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, { clientId }),
      'invalid_grant',
      /revoked/,
    );
    expect((await oauth.listGrants(approver.userId)).every((g) => g.scopes.length > 0)).toBe(true);
  });

  it('records grants, their revocations with the reason, and client registration and deletion in the audit log', async () => {
    const from = audited.length;
    const v = verifier();
    const first = await exchange(await codeFor(v), v);
    await oauth.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, { clientId });
    await refused(
      oauth.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, { clientId }),
      'invalid_grant',
      /revoked/,
    );
    const mine = await oauth.registerClient(approver.userId, {
      name: 'Audited',
      redirectUris: [redirectUri],
      confidential: false,
    });
    await oauth.deleteClient(approver.userId, mine.client.id);
    const entries = audited.slice(from);
    const grant = entries.find((e) => e.action === 'oauth.grant')!;
    expect(grant).toMatchObject({
      actorId: approver.userId,
      outcome: 'success',
      detail: { client: clientId },
    });
    expect(entries.filter((e) => e.action === 'oauth.grant')).toHaveLength(1); // a refresh is not a new grant
    expect(entries.find((e) => e.action === 'oauth.grant_revoke')).toMatchObject({
      target: grant.target,
      actorId: approver.userId,
      credential: 'none',
      detail: { client: clientId, reason: 'refresh_token_reuse' },
    });
    expect(
      entries.filter((e) => e.action.startsWith('oauth.client_')).map((e) => [e.action, e.target]),
    ).toEqual([
      ['oauth.client_create', `oauth_client:${mine.client.id}`],
      ['oauth.client_delete', `oauth_client:${mine.client.id}`],
    ]);
    expect(JSON.stringify(entries)).not.toContain(first.refresh_token);
  });

  it('two concurrent uses of one refresh token: one wins the rotation, the other is a replay that revokes both', async () => {
    const v = verifier();
    const first = await exchange(await codeFor(v), v);
    const form = { grant_type: 'refresh_token', refresh_token: first.refresh_token };
    const results = await Promise.allSettled([
      oauth.token(form, { clientId }),
      oauth.token(form, { clientId }),
    ]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won.length).toBeLessThanOrEqual(1);
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(lost[0]).toMatchObject({ error: 'invalid_grant' });
    for (const tokens of won)
      await expect(accounts.authenticateToken(tokens.access_token)).rejects.toMatchObject({
        code: 'invalid_token',
      });
  });

  it('lets a refresh narrow the scopes, never widen them', async () => {
    const v = verifier();
    const first = await exchange(await codeFor(v), v);
    await refused(
      oauth.token(
        { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'alerts:write' },
        { clientId },
      ),
      'invalid_scope',
    );
    const narrowed = await oauth.token(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'market:read' },
      { clientId },
    );
    expect(narrowed.scope).toBe('market:read');
  });

  it('authenticates confidential clients by secret and refuses a public client sending one', async () => {
    const v = verifier();
    const { redirectTo } = await oauth.decideAuthorization(
      request(v, { client_id: confidential.id }),
      approver as never,
      issuer,
      true,
    );
    const code = new URL(redirectTo).searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: v };
    await refused(
      oauth.token(form, { clientId: confidential.id, clientSecret: 'mrc_wrong' }),
      'invalid_client',
    );
    await refused(oauth.token(form, { clientId: confidential.id }), 'invalid_client');
    await expect(
      oauth.token(form, { basic: { id: confidential.id, secret: confidential.secret } }),
    ).resolves.toHaveProperty('access_token');
    await refused(oauth.token(form, { clientId, clientSecret: 'anything' }), 'invalid_client', /public/);
  });

  it('narrows scopes to what the person has, and refuses unknown scopes', async () => {
    const v = verifier();
    const check = await oauth.describeAuthorization(
      request(v, { scope: 'market:read users:manage' }),
      approver as never,
      issuer,
    );
    expect(check).toMatchObject({
      outcome: 'consent',
      scopes: ['market:read'],
      client: { name: 'Chart App' },
    });
    const unknown = await oauth.describeAuthorization(
      request(v, { scope: 'market:read root' }),
      approver as never,
      issuer,
    );
    expect(unknown.outcome).toBe('redirect');
    expect(new URL((unknown as { redirectTo: string }).redirectTo).searchParams.get('error')).toBe(
      'invalid_scope',
    );
  });

  it('Deny tells the client access_denied with its state', async () => {
    const { redirectTo } = await oauth.decideAuthorization(
      request(verifier()),
      approver as never,
      issuer,
      false,
    );
    const url = new URL(redirectTo);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st-123');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('revocation (RFC 7009) revokes the grant; an unknown token is answered alike', async () => {
    const v = verifier();
    const tokens = await exchange(await codeFor(v), v);
    await oauth.revoke({ token: 'mrr_unknown' }, { clientId });
    await oauth.revoke({ token: tokens.refresh_token }, { clientId });
    await expect(accounts.authenticateToken(tokens.access_token)).rejects.toMatchObject({
      code: 'invalid_token',
    });
  });

  it('refuses redirect URIs with wildcards, fragments or plain http off loopback at registration', async () => {
    for (const uri of [
      'https://*.example.com/cb',
      'https://app.example.com/cb#x',
      'http://app.example.com/cb',
      'cb',
    ]) {
      await expect(
        oauth.registerClient(null, { name: 'bad', redirectUris: [uri], confidential: false }),
      ).rejects.toMatchObject({ code: 'validation_failed' });
    }
    await expect(
      oauth.registerClient(null, {
        name: 'native',
        redirectUris: ['http://127.0.0.1:7777/cb'],
        confidential: false,
      }),
    ).resolves.toHaveProperty('client.type', 'public');
  });

  it('deleting a client revokes every token issued to it', async () => {
    const mine = await oauth.registerClient(approver.userId, {
      name: 'Short-lived',
      redirectUris: [redirectUri],
      confidential: false,
    });
    const v = verifier();
    const { redirectTo } = await oauth.decideAuthorization(
      request(v, { client_id: mine.client.id }),
      approver as never,
      issuer,
      true,
    );
    const tokens = await oauth.token(
      {
        grant_type: 'authorization_code',
        code: new URL(redirectTo).searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: v,
      },
      { clientId: mine.client.id },
    );
    await oauth.deleteClient(approver.userId, mine.client.id);
    await expect(accounts.authenticateToken(tokens.access_token)).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect((await oauth.listClients(approver.userId)).map((c) => c.id)).not.toContain(mine.client.id);
  });

  it('names the client of an access token (usage by client), then sweeps spent rows after the retention', async () => {
    const day = 86_400_000;
    const count = async (table: string, column: string, value: string) =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(
          db.db,
        )
      ).rows[0]!.n;
    const v1 = verifier();
    const live = await exchange(await codeFor(v1), v1);
    const liveGrant = (await accounts.grantOfToken(live.access_token))!;
    const v2 = verifier();
    const revoked = await exchange(await codeFor(v2), v2);
    const revokedGrant = (await accounts.grantOfToken(revoked.access_token))!;
    await oauth.revoke({ token: revoked.refresh_token }, { clientId });
    const unused = await codeFor(verifier()); // never exchanged: expires in a minute
    const unusedHash = (
      await sql<{
        code_hash: string;
      }>`select code_hash from oauth_codes where grant_id is null order by created_at desc limit 1`.execute(
        db.db,
      )
    ).rows[0]!.code_hash;
    expect(unused).toBeTruthy();

    const tokenId = (
      await sql<{ id: string }>`select id from api_tokens where grant_id = ${liveGrant}`.execute(db.db)
    ).rows[0]!.id;
    const grants = await accounts.grantsOfTokens(approver.userId, [tokenId, 'tok_unknown']);
    expect([...grants]).toEqual([[tokenId, liveGrant]]);
    expect(await accounts.grantsOfTokens('usr_someone_else', [tokenId])).toEqual(new Map());
    expect(await oauth.clientsOfGrants([liveGrant])).toEqual(
      new Map([[liveGrant, { id: clientId, name: 'Chart App' }]]),
    );

    // Within the retention nothing goes; past it the spent code and the revoked grant (with its tokens) go.
    clock.advance(34 * day);
    await oauth.pruneExpired(35 * day);
    expect(await count('oauth_codes', 'code_hash', unusedHash)).toBe(1);
    expect(await count('oauth_grants', 'id', revokedGrant)).toBe(1);
    clock.advance(2 * day);
    await oauth.pruneExpired(35 * day);
    expect(await count('oauth_codes', 'code_hash', unusedHash)).toBe(0);
    expect(await count('oauth_grants', 'id', revokedGrant)).toBe(0);
    expect(await count('oauth_refresh_tokens', 'grant_id', revokedGrant)).toBe(0);
    expect(await count('api_tokens', 'grant_id', revokedGrant)).toBe(0);
    // The live grant's refresh token (30 days) expired 6 days ago: kept, and so is the grant.
    expect(await count('oauth_grants', 'id', liveGrant)).toBe(1);
    expect(await count('oauth_refresh_tokens', 'grant_id', liveGrant)).toBe(1);
    clock.advance(30 * day);
    const removed = await oauth.pruneExpired(35 * day);
    expect(removed.grants).toBeGreaterThanOrEqual(1);
    expect(await count('oauth_refresh_tokens', 'grant_id', liveGrant)).toBe(0);
    expect(await count('oauth_grants', 'id', liveGrant)).toBe(0);
    expect(await count('api_tokens', 'grant_id', liveGrant)).toBe(0);
  });
});
