import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../harness/db.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/**
 * Input a client should never send, sent anyway: every answer is a problem document naming what is wrong —
 * never a 500, never Fastify's default error body — and nothing stored changes.
 */
describe.each(dbKinds())('hostile input on %s', (db) => {
  let t: TestApp;
  let user: TestUser;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({ db, env: { MERIDIAN_MARKET_HISTORY_DAYS: '1', MERIDIAN_SYMBOLS: 'BTCUSDT' } });
    user = await t.user('member');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.statusCode).toBe(200);
    cookie = String(login.headers['set-cookie']).split(';')[0]!;
  }, 60_000);
  afterAll(() => t.close());

  const problem = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as {
      status: number;
      code: string;
      requestId: string;
      errors?: { pointer: string }[];
    };
    expect(body.status).toBe(res.statusCode);
    expect(body.requestId).toBe(res.headers['x-request-id']);
    return body;
  };

  it('answers a malformed URL with a 400 problem and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/%', headers: user.auth });
    expect(res.statusCode).toBe(400);
    expect(problem(res).code).toBe('bad_request');
  });

  it('answers HTTP that Node cannot parse with a problem document and closes the connection', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const raw = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
      });
    const parts = (text: string) => {
      const [head, body] = text.split('\r\n\r\n');
      return { head: head!.toLowerCase(), body: JSON.parse(body!) };
    };

    const huge = parts(
      await raw(`GET /api/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(huge.head).toMatch(/^http\/1\.1 431 /);
    expect(huge.head).toContain('content-type: application/problem+json');
    expect(huge.body).toMatchObject({
      status: 431,
      code: 'headers_too_large',
      type: '/problems/headers_too_large',
    });
    expect(huge.head).toContain(`x-request-id: ${huge.body.requestId}`);

    const garbage = parts(await raw('NOT HTTP AT ALL\r\n\r\n'));
    expect(garbage.head).toMatch(/^http\/1\.1 400 /);
    expect(garbage.body).toMatchObject({ status: 400, code: 'bad_request' });
    expect(garbage.body.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses NUL characters by name, in the body, the path and the query, before storage sees them', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a\u0000@example.com', password: 'x' },
    });
    expect(login.statusCode).toBe(400);
    expect(problem(login).errors?.map((e) => e.pointer)).toEqual(['/body/email']);

    const before = (await t.app.inject({ url: '/api/account/tokens', headers: { cookie } })).json().data
      .length;
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie },
      payload: { name: 'bot\u0000' },
    });
    expect(create.statusCode).toBe(400);
    expect(problem(create).errors?.map((e) => e.pointer)).toEqual(['/body/name']);
    // The same field refused by the service (the schema lets blanks through): the same pointer.
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie },
      payload: { name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(problem(blank).errors?.map((e) => e.pointer)).toEqual(['/body/name']);
    const after = (await t.app.inject({ url: '/api/account/tokens', headers: { cookie } })).json().data
      .length;
    expect(after).toBe(before);

    for (const url of ['/api/account/tokens/%00', '/api/account/tokens/tok_%00/rotate']) {
      const method = url.endsWith('rotate') ? 'POST' : 'DELETE';
      const res = await t.app.inject({ method, url, headers: { cookie } });
      expect(res.statusCode).toBe(400);
      expect(problem(res).errors?.[0]?.pointer).toBe('/path/id');
    }
    const query = await t.app.inject({ url: '/api/market-history?symbol=BTC%00', headers: user.auth });
    expect(query.statusCode).toBe(400);
    expect(problem(query).errors?.[0]?.pointer).toBe('/query/symbol');
  });

  it('refuses numbers that are not finite', async () => {
    for (const url of [
      '/api/market-data?notional=Infinity',
      '/api/market-data?notional=1e400',
      '/api/onchain/flows?minUsd=Infinity',
      '/api/onchain/flows?minUsd=1e999',
    ]) {
      const res = await t.app.inject({ url, headers: user.auth });
      expect(res.statusCode, url).toBe(400);
      expect(problem(res).code).toBe('validation_failed');
    }
  });

  it('checks a GET query after authentication, and a query string seen clean is no pass for another', async () => {
    // No token: 401 before the query is looked at.
    expect((await t.app.inject({ url: '/api/market-data?notional=1e400' })).statusCode).toBe(401);
    // A clean query string is remembered as clean; the same route with a bad one is still refused, every time.
    for (let i = 0; i < 2; i++) {
      const clean = await t.app.inject({ url: '/api/market-data?notional=1000', headers: user.auth });
      expect(clean.statusCode).toBe(200);
      const bad = await t.app.inject({ url: '/api/market-data?notional=Infinity', headers: user.auth });
      expect(bad.statusCode).toBe(400);
      expect(problem(bad).errors?.[0]?.pointer).toBe('/query/notional');
    }
  });

  it('lists every problem of a history request at once', async () => {
    /** The sorted pointers of a 400 answer's problems. */
    const pointersOf = async (url: string) => {
      const res = await t.app.inject({ url, headers: user.auth });
      expect(res.statusCode, url).toBe(400);
      return problem(res)
        .errors?.map((e) => e.pointer)
        .sort();
    };
    expect(await pointersOf('/api/market-history?symbol=BTCUSDT&from=bad&to=worse')).toEqual([
      '/query/from',
      '/query/to',
    ]);
    expect(await pointersOf('/api/market-history?symbol=BTCUSDT&limit=0&from=bad')).toEqual([
      '/query/from',
      '/query/limit',
    ]);
    // Shaped like dates, but no such days; the symbol is missing too.
    expect(await pointersOf('/api/market-history?from=2021-02-30T00:00:00Z&to=2021-13-01')).toEqual([
      '/query/from',
      '/query/symbol',
      '/query/to',
    ]);
  });
});
