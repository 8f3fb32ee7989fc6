import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DerivativesService } from '../../src/modules/derivatives/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);

describe.each(dbKinds())('derivatives endpoints through the real app on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let derivatives: DerivativesService;
  const clock = manualClock(NOW);

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: {
        MERIDIAN_DERIVATIVES_HISTORY_DAYS: '2',
        MERIDIAN_SIM_SEED: '7',
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
      },
      container: { clock },
    });
    user = await t.user('viewer');
    derivatives = t.container.derivatives.service;
    await derivatives.start();
    await derivatives.backfilled();
    clock.advance(120_000);
    await derivatives.refresh();
  });
  afterAll(async () => {
    await derivatives?.stop();
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

  it('GET /api/derivatives: funding, open interest, basis, liquidations and venues, said to be simulated', async () => {
    const res = await get('/api/derivatives?symbols=btc-usdt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['meridian-source']).toBe('simulated');
    expect(res.headers['meridian-simulated']).toBe('true');
    const body = res.json() as Json;
    expect(body).toMatchObject({ source: 'simulated', simulated: true, stale: false });
    const [btc] = body.data;
    expect(btc.symbol).toBe('BTCUSDT');
    expect(typeof btc.funding.rate).toBe('number');
    expect(btc.funding.nextFundingTime).toBe('2026-01-10T16:00:00.000Z');
    expect(btc.openInterest.usd).toBeGreaterThan(0);
    // A day of hourly open-interest history was backfilled: the 24 h change is known.
    expect(typeof btc.openInterest.change24hPct).toBe('number');
    expect(typeof btc.basis.bps).toBe('number');
    expect(btc.liquidations.h24.longUsd).toBeGreaterThanOrEqual(0);
    expect(btc.venues.map((v: Json) => [v.venue, v.liquidations])).toEqual([
      ['binance', true],
      ['okx', true],
      ['kraken', false],
    ]);
    expect(btc.venues.reduce((s: number, v: Json) => s + v.weight, 0)).toBeCloseTo(1, 5);
  });

  it('GET /api/derivatives/history pages a series with a cursor, and says what is wrong with a bad request', async () => {
    const first = await get(
      `/api/derivatives/history?symbol=BTCUSDT&metric=open_interest&interval=1h&limit=10&from=${NOW - 86_400_000}`,
    );
    expect(first.statusCode).toBe(200);
    const page = first.json() as Json;
    expect(page.data).toHaveLength(10);
    expect(page.data[0]).toHaveProperty('openInterestUsd');
    expect(page.nextCursor).toEqual(expect.any(String));
    const from = Date.parse(page.data[9].timestamp);
    const second = (await get(`/api/derivatives/history?cursor=${page.nextCursor}`)).json() as Json;
    expect(Date.parse(second.data[0].timestamp)).toBeGreaterThan(from);
    const funding = (
      await get('/api/derivatives/history?symbol=BTCUSDT&metric=funding&interval=1h&limit=1000')
    ).json() as Json;
    // Two days of settlements every 8 h, at 00, 08, 16 UTC.
    expect(funding.data.length).toBeGreaterThanOrEqual(6);
    for (const p of funding.data) expect(new Date(p.at).getUTCHours() % 8).toBe(0);

    const bad = await get('/api/derivatives/history?symbol=BTCUSDT&metric=volume');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(bad.json().errors).toEqual([
      { pointer: '/query/metric', message: 'must be one of funding, open_interest, basis, liquidations' },
    ]);
    const missing = await get('/api/derivatives/history?metric=funding');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('/query/symbol');
  });
});
