import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

describe('HTTP behaviour: problems, request ids, health', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
  });
  afterAll(() => t.close());

  const expectProblem = (
    res: { headers: Record<string, unknown>; json(): unknown },
    status: number,
    code: string,
  ) => {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as Record<string, unknown>;
    expect(body).toMatchObject({ status, code, type: `/problems/${code}` });
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(typeof body.title).toBe('string');
    expect(typeof body.detail).toBe('string');
    return body;
  };

  it('answers unknown routes with 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope', headers: admin.auth });
    expect(res.statusCode).toBe(404);
    expectProblem(res, 404, 'route_not_found');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/account', headers: admin.auth });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expectProblem(res, 405, 'method_not_allowed');
  });

  it('lists every validation problem with a JSON pointer', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: { not: 'a string' }, extra: true },
    });
    expect(login.statusCode).toBe(400);
    const body = expectProblem(login, 400, 'validation_failed');
    const pointers = (body.errors as Array<{ pointer: string }>).map((e) => e.pointer).sort();
    expect(pointers).toEqual(['/body/email', '/body/extra', '/body/password']);
  });

  it('answers 415 for an unsupported body type and 400 for broken JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expectProblem(res, 415, 'unsupported_media_type');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expectProblem(bad, 400, 'bad_request');
  });

  it('answers 413 for an oversized body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a', password: 'x'.repeat(2_000_000) }),
    });
    expect(res.statusCode).toBe(413);
    expectProblem(res, 413, 'payload_too_large');
  });

  it('echoes a sane request id and invents one otherwise', async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const evil = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b\nc' },
    });
    expect(evil.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    // Generated ids are random, never repeated.
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++)
      ids.add((await t.app.inject({ url: '/healthz' })).headers['x-request-id'] as string);
    expect(ids.size).toBe(300);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('serves health, readiness, metrics, OpenAPI 3.1 and docs', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.storage).toBeNull();
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.body).toContain('meridian_http_requests_total');
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/account'].get.responses['200']).toBeDefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
    const docs = await t.app.inject({ url: '/docs/' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('counts requests and their durations per route in /metrics, in Prometheus text format', async () => {
    const user = await t.user('viewer');
    const scrape = async () => (await t.app.inject({ url: '/metrics' })).body;
    const value = (body: string, series: string) => {
      const line = body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const ok = 'meridian_http_requests_total{method="GET",route="/api/account",status="200"}';
    const forbidden = 'meridian_http_requests_total{method="GET",route="/api/account",status="401"}';
    const count = 'meridian_http_request_duration_seconds_count{route="/api/account"}';
    const unmatched = 'meridian_http_requests_total{method="GET",route="unmatched",status="404"}';
    const before = await scrape();
    for (let i = 0; i < 7; i++) await t.app.inject({ url: '/api/account', headers: user.auth });
    for (let i = 0; i < 2; i++) await t.app.inject({ url: '/api/account' });
    for (let i = 0; i < 3; i++) await t.app.inject({ url: `/no-such-route-${i}`, headers: user.auth });
    const after = await scrape();
    expect(value(after, unmatched) - value(before, unmatched)).toBe(3);
    expect(value(after, ok) - value(before, ok)).toBe(7);
    expect(value(after, forbidden) - value(before, forbidden)).toBe(2);
    expect(value(after, count) - value(before, count)).toBe(9);
    // The histogram: cumulative buckets ending in +Inf = count, a positive sum, declared as a histogram.
    expect(after).toContain('# TYPE meridian_http_request_duration_seconds histogram');
    const buckets = after
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('meridian_http_request_duration_seconds_bucket{') &&
          l.includes('route="/api/account"'),
      )
      .map((l) => Number(l.split(' ').at(-1)));
    expect(buckets).toHaveLength(9);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]!);
    expect(buckets.at(-1)).toBe(value(after, count));
    expect(value(after, 'meridian_http_request_duration_seconds_sum{route="/api/account"}')).toBeGreaterThan(
      0,
    );
  });

  it('describes problem types at their URI', async () => {
    const res = await t.app.inject({ url: '/problems/rate_limited' });
    expect(res.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('hides internal failures behind a generic 500 without stack or SQL', async () => {
    const broken = await createTestApp();
    await broken.container.db.close();
    const res = await broken.app.inject({
      url: '/api/account/tokens',
      headers: { cookie: 'meridian_session=whatever' },
    });
    expect(res.statusCode).toBe(500);
    const body = expectProblem(res, 500, 'internal');
    expect(JSON.stringify(body)).not.toMatch(/select|sessions|stack|\.ts/i);
    await broken.app.close();
  });
});
