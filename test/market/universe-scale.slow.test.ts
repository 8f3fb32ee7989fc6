import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

/**
 * The whole app over a generated universe of 200 simulated markets (`MERIDIAN_SYMBOLS=top:200`): everything is
 * answered from the first second, history included, and what is still filling says so until it is done.
 */
describe('a universe of 200 symbols', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    // A 5-minute model refresh: the walk-forward warm-up steps once a refresh, so 200 symbols warm up 5× faster.
    t = await createTestApp({
      env: {
        MERIDIAN_SYMBOLS: 'top:200',
        MERIDIAN_MARKET_HISTORY_DAYS: '7',
        MERIDIAN_MODEL_REFRESH_MS: '300000',
      },
    });
    user = await t.user('viewer');
  });
  afterAll(async () => {
    await t?.container.predictions.service.stop();
    await t?.container.market.service.stop();
    await t?.close();
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

  it('lists every symbol, serves the last one’s history at once (flagged while it fills), then forecasts it', async () => {
    const market = t.container.market.service;
    const predictions = t.container.predictions.service;
    const symbols = market.symbols();
    expect(symbols).toHaveLength(200);
    expect(new Set(symbols).size).toBe(200);
    const last = symbols.at(-1)!;

    await market.start();
    market.tickNow();
    await predictions.start();

    // Every symbol listed by GET /api/market-data, paging with the cursor.
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/api/market-data?limit=64${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json() as {
        data: Array<{ symbol: string; price: number | null }>;
        nextCursor: string | null;
      };
      for (const item of page.data) {
        expect(item.price).toBeGreaterThan(0);
        listed.push(item.symbol);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed).toEqual(symbols);

    // The last symbol's history is answered now, while its window is still loading, and says so.
    const early = await get(`/api/market-history?symbol=${last}&interval=1h&limit=72`);
    expect(early.statusCode).toBe(200);
    const earlyBody = early.json() as Json;
    expect(earlyBody.data.length).toBe(72);
    expect(earlyBody.history.backfilling).toBe(true);
    expect(early.headers['meridian-backfilling']).toBe('true');
    // Its forecasts say they are not there yet for the same reason.
    const noForecast = await get(`/api/predictions?symbol=${last}&horizon=1h`);
    expect(noForecast.statusCode).toBe(200);
    expect(noForecast.headers['meridian-backfilling']).toBe('true');
    const readyz = (await t.app.inject({ url: '/readyz' })).json() as Json;
    expect(readyz.components.history.reason).toMatch(
      /filling history: working windows of \d+ of 200 symbols/,
    );

    await market.windowsLoaded();
    const loaded = await get(`/api/market-history?symbol=${last}&interval=1h&limit=72`);
    expect((loaded.json() as Json).history.backfilling).toBe(false);
    expect(loaded.headers['meridian-backfilling']).toBeUndefined();
    // The same bars as before the window loaded: computed history and the loaded window agree.
    const closedBars = (body: Json) =>
      body.data.filter((c: Json) => c.closed).map((c: Json) => [c.openTime, c.close]);
    const before = new Map(closedBars(earlyBody).map(([time, close]: [number, number]) => [time, close]));
    for (const [time, close] of closedBars(loaded.json()))
      if (before.has(time)) expect(close).toBe(before.get(time));

    // Once its history suffices (its window is loaded and the model has warmed up on it), it is forecast.
    await waitUntil(() => !predictions.warming(last, '1h'), `${last} warmed up at 1h`, 500_000, 250);
    await predictions.tick();
    const forecast = await get(`/api/predictions?symbol=${last}&horizon=1h`);
    expect(forecast.headers['meridian-backfilling']).toBeUndefined();
    const data = (forecast.json() as Json).data as Json[];
    expect(data.length).toBeGreaterThan(0);
    expect(data.at(-1).symbol).toBe(last);
  }, 600_000);
});
