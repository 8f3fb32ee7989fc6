import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { createKyselyCandleRepository } from '../../src/modules/market/repository.kysely.ts';
import type { MarketRuntime } from '../../src/modules/market/service.ts';
import { withNextCursor } from '../../src/modules/market/index.ts';
import type { MarketTables } from '../../src/modules/market/tables.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);
const DAY_START = Date.UTC(2026, 0, 9);

describe.each(dbKinds())('market endpoints through the real app on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let market: MarketRuntime;
  const clock = manualClock(NOW);

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: { MERIDIAN_MARKET_HISTORY_DAYS: '2', MERIDIAN_SIM_SEED: '7' },
      container: { clock },
    });
    user = await t.user('viewer');
    market = t.container.market.service;
    await market.start();
    await market.windowsLoaded();
    market.tickNow();
  });
  afterAll(async () => {
    await market?.stop();
    await t?.close();
  });

  const get = (url: string, auth = true) =>
    t.app.inject({ method: 'GET', url, headers: auth ? user.auth : {} });

  it('GET /api/market-data serves the pre-serialized snapshot of every symbol (one page)', async () => {
    const res = await get('/api/market-data');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // Seven symbols fit the first page: the all-symbols bytes of the tick, with the page's end after them.
    expect(res.rawPayload.toString()).toBe(withNextCursor(market.marketDataBytes().toString(), null));
    const body = res.json() as { data: Array<Record<string, Json>>; nextCursor: string | null };
    expect(body.nextCursor).toBeNull();
    expect(body.data.map((d) => d.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      'BNBUSDT',
      'XRPUSDT',
      'ADAUSDT',
      'DOGEUSDT',
    ]);
    for (const d of body.data) {
      expect(d.price).toBeGreaterThan(0);
      expect(d.bestBid).toBeLessThanOrEqual(d.bestAsk * 1.0005);
      expect(d.venues.map((v: { venue: string }) => v.venue).sort()).toEqual([
        'binance',
        'coinbase',
        'kraken',
        'okx',
      ]);
      const weights = d.venues.reduce((s: number, v: { weight: number }) => s + v.weight, 0);
      expect(weights).toBeCloseTo(1, 3);
      expect(d.liquidity.depth.map((x: { bandPct: number }) => x.bandPct)).toEqual([0.5, 1, 2]);
      expect(d.liquidity.depth[2].bidUsd).toBeGreaterThanOrEqual(d.liquidity.depth[0].bidUsd);
      expect(d.liquidity.slippage.notional).toBe(100_000);
      expect(d.high24h).toBeGreaterThanOrEqual(d.low24h);
      expect(d.updatedAt).toBe(new Date(NOW).toISOString());
    }
  });

  it('normalizes requested symbols and reports each change in Meridian-Normalized', async () => {
    const res = await get('/api/market-data?symbols=eth,btc-usd,ETHUSDT');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: Array<{ symbol: string }> }).data.map((d) => d.symbol)).toEqual([
      'ETHUSDT',
      'BTCUSDT',
    ]);
    expect(res.headers['meridian-normalized']).toBe('symbols=eth->ETHUSDT; symbols=btc-usd->BTCUSDT');

    const fallback = await get('/api/market-data?symbols=LINKUSDT');
    expect((fallback.json() as { data: Array<{ symbol: string }> }).data.map((d) => d.symbol)).toEqual([
      'BTCUSDT',
    ]);
    expect(fallback.headers['meridian-normalized']).toBe('symbols=LINKUSDT->BTCUSDT');
  });

  it('strict=true answers 400 with the supported set', async () => {
    const res = await get('/api/market-data?symbols=LINKUSDT&strict=true');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as Record<string, Json>;
    expect(body.code).toBe('unsupported_symbol');
    expect(body.supported).toContain('DOGEUSDT');
    expect(body.errors[0].pointer).toBe('/query/symbols');

    const history = await get('/api/market-history?symbol=LINK&strict=true');
    expect(history.statusCode).toBe(400);
    expect((history.json() as { code: string }).code).toBe('unsupported_symbol');
  });

  it('recomputes slippage for another notional; rejects a bad one naming the parameter', async () => {
    const res = await get('/api/market-data?notional=1000&symbols=BTCUSDT');
    const d = (res.json() as { data: Array<Record<string, Json>> }).data[0]!;
    expect(d.liquidity.slippage.notional).toBe(1000);
    expect(d.liquidity.slippage.buyBps).toBeGreaterThan(0);
    const bad = await get('/api/market-data?notional=abc');
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('/query/notional');
  });

  it('requires a token with market:read', async () => {
    expect((await get('/api/market-data', false)).statusCode).toBe(401);
    expect((await get('/api/market-history?symbol=BTCUSDT', false)).statusCode).toBe(401);
  });

  it('pages through a whole day of 1m candles with no bar missing or repeated', async () => {
    const times: number[] = [];
    let url = `/api/market-history?symbol=btc/usdt&interval=1m&from=${new Date(DAY_START).toISOString()}&to=${DAY_START + 86_400_000}&limit=1000`;
    let pages = 0;
    for (;;) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        symbol: string;
        interval: string;
        data: Json[];
        nextCursor: string | null;
      };
      expect(body.symbol).toBe('BTCUSDT');
      expect(body.interval).toBe('1m');
      pages++;
      for (const c of body.data) {
        expect(c.closed).toBe(true);
        expect(c.timestamp).toBe(new Date(c.openTime).toISOString());
        expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
        expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
        times.push(c.openTime);
      }
      if (!body.nextCursor) break;
      url = `/api/market-history?cursor=${body.nextCursor}&limit=1000`;
    }
    expect(pages).toBe(2);
    expect(times).toHaveLength(1440);
    expect(times).toEqual(Array.from({ length: 1440 }, (_, i) => DAY_START + i * 60_000));
  });

  it('rolls 1m up consistently: a 1h bar equals its 60 minutes', async () => {
    const hour = DAY_START + 5 * 3_600_000;
    const h = (
      await get(`/api/market-history?symbol=BTCUSDT&interval=1h&from=${hour}&to=${hour + 3_600_000}`)
    ).json() as Json;
    const m = (
      await get(`/api/market-history?symbol=BTCUSDT&interval=1m&from=${hour}&to=${hour + 3_600_000}&limit=60`)
    ).json() as Json;
    expect(h.data).toHaveLength(1);
    expect(m.data).toHaveLength(60);
    const bar = h.data[0];
    expect(bar.open).toBe(m.data[0].open);
    expect(bar.close).toBe(m.data[59].close);
    expect(bar.high).toBe(Math.max(...m.data.map((c: Json) => c.high)));
    expect(bar.low).toBe(Math.min(...m.data.map((c: Json) => c.low)));
    expect(bar.volume).toBeCloseTo(
      m.data.reduce((s: number, c: Json) => s + c.volume, 0),
      6,
    );
  });

  it('normalizes the interval and clamps limit, saying so in the header', async () => {
    const res = await get('/api/market-history?symbol=ETHUSDT&interval=60m&limit=5000');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { interval: string; data: Json[] };
    expect(body.interval).toBe('1h');
    expect(res.headers['meridian-normalized']).toBe('limit=5000->1000; interval=60m->1h');
    // Default range: the newest bars up to now, oldest first, the last one still open.
    expect(body.data.length).toBeGreaterThan(40);
    const last = body.data.at(-1);
    expect(last.openTime).toBe(Math.floor(NOW / 3_600_000) * 3_600_000);
    expect(last.closed).toBe(false);
    expect(body.data.slice(0, -1).every((c) => c.closed)).toBe(true);
    const opens = body.data.map((c) => c.openTime);
    expect([...opens].sort((a, b) => a - b)).toEqual(opens);
  });

  it('answers 400 naming the parameter for bad from/to/limit/cursor', async () => {
    const cases: Array<[string, string]> = [
      ['/api/market-history?symbol=BTCUSDT&from=yesterday', '/query/from'],
      ['/api/market-history?symbol=BTCUSDT&to=2026-13-45', '/query/to'],
      ['/api/market-history?symbol=BTCUSDT&from=2026-01-02&to=2026-01-01', '/query/from'],
      ['/api/market-history?symbol=BTCUSDT&limit=0', '/query/limit'],
      ['/api/market-history?symbol=BTCUSDT&limit=2.5', '/query/limit'],
      ['/api/market-history?symbol=BTCUSDT&cursor=nonsense', '/query/cursor'],
      ['/api/market-history?interval=1h', '/query/symbol'],
    ];
    for (const [url, pointer] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json() as { errors: Array<{ pointer: string }> };
      expect(
        body.errors.map((e) => e.pointer),
        url,
      ).toContain(pointer);
    }
  });

  it('stores the bars it builds live in this database (history before start is computed, not stored)', async () => {
    const repo = createKyselyCandleRepository(tablesOf<MarketTables>(t.container.db.db));
    await market.flush();
    expect(await repo.range('BTCUSDT', 'merged', '1m', 0, NOW, 10)).toEqual([]);
    // Two minutes pass on the market's clock: the feed ticks at the new times and the engine closes the bars.
    const ticked = async () => {
      const seen = market.status().events;
      await waitUntil(() => market.status().events > seen + 50, 'the feed to tick at the new time');
    };
    for (let i = 0; i < 2; i++) {
      clock.advance(60_000);
      await ticked();
      clock.advance(3_000);
      await ticked();
      market.tickNow();
    }
    await market.flush();
    const stored = await repo.range('BTCUSDT', 'merged', '1m', NOW - 60_000, clock.now(), 1000);
    expect(stored.length).toBeGreaterThan(0);
    const from = stored[0]!.openTime;
    const to = stored.at(-1)!.openTime + 60_000;
    const served = (
      await get(`/api/market-history?symbol=BTCUSDT&interval=1m&from=${from}&to=${to}&limit=1000`)
    ).json() as { data: Json[] };
    const ohlc = (c: Json) => [c.openTime, c.open, c.high, c.low, c.close];
    expect(served.data.map(ohlc)).toEqual(stored.map(ohlc));
  });

  it('prices assets in USD for other engines', async () => {
    expect(await market.usdPrice('USDC')).toBe(1);
    const eth = await market.usdPrice('WETH', DAY_START + 60_000);
    expect(eth).toBe(
      market.recentCandles('ETHUSDT', '1m', 3000).find((c) => c.openTime === DAY_START + 60_000)!.close,
    );
    expect(market.usdPriceNow('ETH')).toBe(market.snapshot('ETHUSDT')!.mid);
    expect(await market.usdPrice('UNKNOWNCOIN')).toBeNull();
  });
});
