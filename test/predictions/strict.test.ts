import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** `strict=true` on the predictions routes refuses what it would otherwise normalize, as market data does. */
describe('strict=true on /api/predictions', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.user('viewer');
  });
  afterAll(async () => t?.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

  it('answers 400 unsupported_symbol with the supported set for an unknown symbol', async () => {
    const res = await get('/api/predictions?symbol=NOPEUSDT&horizon=1h&strict=true');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as { code: string; supported: string[]; errors: Array<{ pointer: string }> };
    expect(body.code).toBe('unsupported_symbol');
    expect(body.supported).toContain('ETHUSDT');
    expect(body.errors[0]!.pointer).toBe('/query/symbol');
  });

  it('answers 400 naming the parameter for a horizon or granularity that is no duration', async () => {
    const horizon = await get('/api/predictions?symbol=BTCUSDT&horizon=soon&strict=true');
    expect(horizon.statusCode).toBe(400);
    expect((horizon.json() as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe(
      '/query/horizon',
    );
    const granularity = await get('/api/predictions?symbol=BTCUSDT&granularity=often&strict=true');
    expect(granularity.statusCode).toBe(400);
    expect((granularity.json() as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe(
      '/query/granularity',
    );
  });

  it('still normalizes a spelling it can map, and without strict falls back as documented', async () => {
    const spelled = await get('/api/predictions?symbol=eth-usd&horizon=1h&strict=true');
    expect(spelled.statusCode).toBe(200);
    expect(spelled.headers['meridian-normalized']).toContain('symbol=eth-usd->ETHUSDT');
    const lenient = await get('/api/predictions?symbol=NOPEUSDT&horizon=1h');
    expect(lenient.statusCode).toBe(200);
    expect(lenient.headers['meridian-normalized']).toContain('symbol=NOPEUSDT->BTCUSDT');
    const off = await get('/api/predictions?symbol=NOPEUSDT&horizon=1h&strict=false');
    expect(off.statusCode).toBe(200);
  });

  it('applies to the outlook of one symbol too', async () => {
    const res = await get('/api/predictions/ai-outlook?symbol=NOPEUSDT&strict=true');
    expect(res.statusCode).toBe(400);
    expect((res.json() as { code: string }).code).toBe('unsupported_symbol');
  });
});
