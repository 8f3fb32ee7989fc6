import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

describe('POST /api/alerts/backtest through the real app (simulated market, 2 days of history)', () => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { MERIDIAN_MARKET_HISTORY_DAYS: '2' } });
    member = await t.user('member');
  });
  afterAll(async () => t?.close());

  const backtest = (query: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/alerts/backtest${query}`, headers: member.auth, payload });

  it('answers every firing of an unsaved rule over the last day, with totals and what the data is', async () => {
    const bars = await t.app.inject({
      method: 'GET',
      url: `/api/market-history?symbol=BTCUSDT&interval=1h&from=${Date.now() - 86_400_000}`,
      headers: member.auth,
    });
    const closes = (bars.json() as Json).data.map((c: Json) => c.close as number);
    const mid = (Math.min(...closes) + Math.max(...closes)) / 2;
    const res = await backtest('?days=1', {
      type: 'price',
      symbol: 'btc',
      condition: { op: 'above', value: mid },
      trigger: { mode: 'every', cooldownSec: 3600 },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Json;
    expect(body.rule).toEqual({
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: mid },
      trigger: { mode: 'every', cooldownSec: 3600 },
    });
    expect(res.headers['meridian-normalized']).toBe('symbol=btc->BTCUSDT');
    expect(Date.parse(body.window.to) - Date.parse(body.window.from)).toBe(86_400_000);
    expect(body.totals.firings).toBeGreaterThan(0);
    expect(body.firings).toHaveLength(body.totals.firings);
    for (const f of body.firings) expect(f.value).toBeGreaterThan(mid);
    const times = body.firings.map((f: Json) => Date.parse(f.at));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(3_600_000);
    expect(body.totals.first).toBe(body.firings[0].at);
    expect(body.totals.perDay.reduce((n: number, d: Json) => n + d.firings, 0)).toBe(body.totals.firings);
    expect(body.data).toMatchObject({ source: 'simulated', simulated: true, missingMinutes: 0 });
    expect(body.data.candles).toBe(1440);
    // Not saved: the account has no rule.
    const list = await t.app.inject({ method: 'GET', url: '/api/alerts', headers: member.auth });
    expect((list.json() as Json).data).toEqual([]);
  });

  it('refuses a window beyond the stored history with a 400 naming days and where history starts', async () => {
    const res = await backtest('?days=7', {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'crosses_above', value: 100_000 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = res.json() as Json;
    expect(problem.errors).toEqual([
      {
        pointer: '/query/days',
        message: expect.stringMatching(/stored history of BTCUSDT starts at \d{4}-/),
      },
    ]);
  });

  it('names bad query and body fields in a 400, never a 500', async () => {
    const zero = await backtest('?days=0', {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1 },
    });
    expect(zero.statusCode).toBe(400);
    expect((zero.json() as Json).errors[0].pointer).toBe('/query/days');
    const both = await backtest(`?days=1&from=${new Date(Date.now() - 3_600_000).toISOString()}`, {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1 },
    });
    expect(both.statusCode).toBe(400);
    expect((both.json() as Json).errors[0].pointer).toBe('/query/days');
    const symbol = await backtest('?days=1', {
      type: 'price',
      symbol: 'NOPE',
      condition: { op: 'above', value: 1 },
    });
    expect(symbol.statusCode).toBe(400);
    expect((symbol.json() as Json).errors.map((e: Json) => e.pointer)).toContain('/body/symbol');
  });

  it('refuses funding, open-interest and liquidations rules with a 400 naming the type: nothing stored to replay', async () => {
    const rules = [
      { type: 'funding', symbol: 'BTCUSDT', condition: { op: 'above', value: 30 } },
      { type: 'open_interest', symbol: 'BTCUSDT', condition: { op: 'above', value: 5, window: '1h' } },
      {
        type: 'liquidations',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 1_000_000, side: 'any', window: '4h' },
      },
    ];
    for (const rule of rules) {
      const res = await backtest('?days=1', rule);
      expect(res.statusCode, rule.type).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect((res.json() as Json).errors).toEqual([
        {
          pointer: '/body/type',
          message: `${rule.type} rules cannot be backtested: stored history holds no derivatives refreshes to replay`,
        },
      ]);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/alerts', headers: member.auth });
    expect((list.json() as Json).data).toEqual([]);
  });
});
