import { describe, expect, it } from 'vitest';
import { buildContainer } from '../../src/app/container.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase } from '../harness/db.ts';

/** The real server with its log lines captured; `close` releases the app, container and database. */
async function loggingApp(configLevel: string, serverLevel: string) {
  const lines: string[] = [];
  const db = await openTestDatabase('pglite');
  const container = await buildContainer(loadConfig({ LOG_LEVEL: configLevel }), {
    db,
    hasher: fastHasher,
    skipMigrations: true,
  });
  const app = await buildServer(container, {
    logLevel: serverLevel,
    logStream: { write: (line) => lines.push(line) },
  });
  const close = async () => {
    await app.close();
    await container.close();
    await db.close();
  };
  return { lines, container, app, close };
}

describe('logs never carry secrets', () => {
  it('redacts token-shaped values and credential parameters from logged query strings', async () => {
    const { lines, container, app, close } = await loggingApp('debug', 'trace');
    try {
      const { user } = await container.accounts.createUser({ email: 'q@example.com', role: 'viewer' });
      const { token } = await container.accounts.createToken(user.id, { name: 'q' });
      await app.inject({
        url: `/api/market-data?symbols=BTCUSDT&note=${token}`,
        headers: { authorization: `Bearer ${token}` },
      });
      await app.inject({ url: '/api/account?access_token=hunter2hunter2&x=1' });
      // A single sign-on callback's authorization code and state.
      await app.inject({ url: '/auth/oidc/callback?code=authcode1234567&state=state7654321&iss=x' });
      const log = lines.join('');
      expect(log).toContain('/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=x');
      expect(log).not.toContain('authcode1234567');
      expect(log).not.toContain('state7654321');
      expect(log).toContain('/api/market-data?symbols=BTCUSDT&note=[redacted]');
      expect(log).toContain('/api/account?access_token=[redacted]&x=1');
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(4, 20));
      expect(log).not.toContain('hunter2hunter2');
    } finally {
      await close();
    }
  });

  it('logs every request at debug level without tokens, cookies or passwords', async () => {
    const { lines, container, app, close } = await loggingApp('debug', 'trace');
    try {
      const password = 'very-secret-password-123';
      const { user } = await container.accounts.createUser({
        email: 'log@example.com',
        role: 'admin',
        password,
      });
      const { token } = await container.accounts.createToken(user.id, { name: 'log' });
      await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token.slice(0, -1)}x` } });
      const login = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'log@example.com', password },
      });
      const session = login.cookies[0]!.value;
      await app.inject({ url: '/api/account/tokens', headers: { cookie: `meridian_session=${session}` } });
      const created = await app.inject({
        method: 'POST',
        url: '/api/account/tokens',
        headers: { cookie: `meridian_session=${session}` },
        payload: { name: 'second' },
      });
      const second = created.json().token as string;

      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(4); // request lines were written
      expect(log).toContain('/api/account');
      for (const secret of [token, token.slice(4, 20), password, session, second])
        expect(log).not.toContain(secret);
    } finally {
      await close();
    }
  });

  it('redacts credential headers and password/token/secret fields when they are logged', () => {
    const lines: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => lines.push(line) });
    const secrets = {
      authorization: 'Bearer mrd_headerSecretAAAAAAAAAAAAAAAAAAAAAAAA',
      cookie: 'meridian_session=cookieSecretBBBBBBBBBBBBBBBBBBBB',
      protocol: 'meridian.v1, mrd_protocolSecretCCCCCCCCCCCCCCCCCCC',
      setCookie: 'meridian_session=setCookieSecretDDDDDDDDDDDDDDD; HttpOnly',
      password: 'passwordSecretEEEEEEEEEEEEEEEE',
      token: 'mrd_tokenSecretFFFFFFFFFFFFFFFFFFFFFFFFF',
      secret: 'secretSecretGGGGGGGGGGGGGGGGGGG',
    };
    const req = {
      method: 'GET',
      url: '/api/account',
      headers: {
        host: 'meridian.test',
        authorization: secrets.authorization,
        cookie: secrets.cookie,
        'sec-websocket-protocol': secrets.protocol,
      },
    };
    const res = {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'set-cookie': secrets.setCookie },
    };
    logger.info({ req, res }, 'request with headers');
    logger.warn({ user: { email: 'a@example.com', password: secrets.password } }, 'login attempt');
    logger.error(
      { body: { name: 'ci', token: secrets.token }, config: { keyId: 'k1', secret: secrets.secret } },
      'bad',
    );
    // Modules log through children of the process logger: the same rules must hold there.
    logger
      .child({ module: 'market' })
      .info({ req, res, user: { password: secrets.password } }, 'from a module');

    expect(lines).toHaveLength(4);
    const log = lines.join('');
    for (const [name, value] of Object.entries(secrets)) expect(log, name).not.toContain(value);
    for (const fragment of ['headerSecret', 'cookieSecret', 'protocolSecret', 'setCookieSecret', 'Secret'])
      expect(log).not.toContain(fragment);
    // Redacted, not dropped: the fields are there with the censor, and the rest of each line is intact.
    const [request, login, bad, child] = lines.map((l) => JSON.parse(l));
    for (const entry of [request, child]) {
      expect(entry.req.headers).toEqual({
        host: 'meridian.test',
        authorization: '[redacted]',
        cookie: '[redacted]',
        'sec-websocket-protocol': '[redacted]',
      });
      expect(entry.res.headers).toEqual({ 'content-type': 'application/json', 'set-cookie': '[redacted]' });
    }
    expect(login.user).toEqual({ email: 'a@example.com', password: '[redacted]' });
    expect(child.user).toEqual({ password: '[redacted]' });
    expect(child.module).toBe('market');
    expect(bad.body).toEqual({ name: 'ci', token: '[redacted]' });
    expect(bad.config).toEqual({ keyId: 'k1', secret: '[redacted]' });
    // The caller's own objects are left untouched.
    expect(req.headers.authorization).toBe(secrets.authorization);
  });

  it('also redacts top-level secret fields, two levels down, and a bare headers object', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    logger.info(
      {
        token: 'mrd_top',
        outer: { inner: { password: 'deep-password' } },
        headers: { authorization: 'Bearer bare', cookie: 'meridian_session=bare' },
        upstream: { headers: { 'sec-websocket-protocol': 'mrd_proto' } },
      },
      'shapes',
    );
    const text = lines.join('');
    for (const secret of ['mrd_top', 'deep-password', 'Bearer bare', 'meridian_session=bare', 'mrd_proto'])
      expect(text).not.toContain(secret);
    const entry = JSON.parse(text);
    expect(entry.token).toBe('[redacted]');
    expect(entry.outer.inner.password).toBe('[redacted]');
    expect(entry.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
    expect(entry.upstream.headers['sec-websocket-protocol']).toBe('[redacted]');
  });

  it('logs a 500 from a throwing route without the bearer token or other credentials', async () => {
    const { lines, container, app, close } = await loggingApp('info', 'info');
    // Test-only routes: one that fails unexpectedly, and one that also logs its request first.
    app.get('/api/test-boom', { config: { permission: 'market:read' } }, async () => {
      throw new Error('boom: the storage layer fell over');
    });
    app.get('/api/test-boom-logged', { config: { permission: 'market:read' } }, async (request) => {
      request.log.warn({ req: request }, 'about to fail');
      throw new TypeError('cannot read properties of undefined');
    });
    try {
      const { user } = await container.accounts.createUser({ email: 'boom@example.com', role: 'viewer' });
      const { token } = await container.accounts.createToken(user.id, { name: 'boom' });
      const headers = {
        authorization: `Bearer ${token}`,
        cookie: 'meridian_session=cookieSecretHHHHHHHHHHHHHHHHHHHHHHH',
        'sec-websocket-protocol': `meridian.v1, ${token}`,
      };
      const failed = await app.inject({ url: '/api/test-boom', headers });
      expect(failed.statusCode).toBe(500);
      expect(failed.json().code).toBe('internal');
      expect(failed.body).not.toContain('storage layer');
      const logged = await app.inject({ url: '/api/test-boom-logged', headers });
      expect(logged.statusCode).toBe(500);

      const entries = lines.map((l) => JSON.parse(l));
      const errors = entries.filter((e) => e.level === 50 && e.msg === 'request failed');
      // Both failures were logged, with the error and the request id the client saw.
      expect(errors.map((e) => e.err?.message)).toEqual([
        'boom: the storage layer fell over',
        'cannot read properties of undefined',
      ]);
      expect(errors.map((e) => e.reqId)).toEqual([
        failed.headers['x-request-id'],
        logged.headers['x-request-id'],
      ]);
      // The request logger serializes `req` to method and url (no headers at all).
      const warned = entries.find((e) => e.msg === 'about to fail');
      expect(warned?.req).toMatchObject({ method: 'GET', url: '/api/test-boom-logged' });
      expect(warned?.reqId).toBe(logged.headers['x-request-id']);

      const log = lines.join('');
      for (const secret of [token, token.slice(4, 20), token.slice(-16), 'cookieSecret'])
        expect(log).not.toContain(secret);
    } finally {
      await close();
    }
  });
});
