import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CcxtExchange } from '../../src/adapters/market/ccxt/index.ts';
import { simulatedUniverse } from '../../src/adapters/market/simulated/index.ts';
import type { MarketRuntime } from '../../src/modules/market/service.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** MERIDIAN_SYMBOLS=top:N through the whole app: the resolved universe is what every route serves and accepts. */

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);

describe('top:50 on the simulated market', () => {
  let t: TestApp;
  let user: TestUser;
  let market: MarketRuntime;
  const expected = simulatedUniverse(50).map((m) => m.symbol);

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_SYMBOLS: 'top:50', MERIDIAN_MARKET_HISTORY_DAYS: '1' },
      container: { clock: manualClock(NOW) },
    });
    user = await t.user('member');
    market = t.container.market.service;
    await market.start();
    market.tickNow();
  }, 120_000);
  afterAll(async () => {
    await market?.stop();
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

  it('the supported set is the generated universe, largest first', () => {
    expect(t.container.market.symbols.list).toEqual(expected);
    expect(market.symbols()).toEqual(expected);
    expect(expected.slice(0, 3)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    // Ranks 8 … 50 are the built-in names (TRX, TON, AVAX, LINK, …); synthetic names start at rank 70.
    expect(expected.slice(7, 11)).toEqual(['TRXUSDT', 'TONUSDT', 'AVAXUSDT', 'LINKUSDT']);
    expect(expected[49]).toBe('CRVUSDT');
  });

  it('GET /api/market-data has a snapshot of every one of the 50, each at its own level and depth', async () => {
    const res = await get('/api/market-data');
    expect(res.statusCode).toBe(200);
    const data = (
      res.json() as {
        data: Array<{
          symbol: string;
          price: number;
          quoteVolume24h: number;
          venues: unknown[];
          liquidity: { depth: Array<{ bidUsd: number }> };
        }>;
      }
    ).data;
    expect(data.map((d) => d.symbol)).toEqual(expected);
    for (const d of data) {
      expect(d.price, d.symbol).toBeGreaterThan(0);
      expect(d.venues, d.symbol).toHaveLength(4);
      expect(d.quoteVolume24h, d.symbol).toBeGreaterThan(0);
    }
    const bySymbol = new Map(data.map((d) => [d.symbol, d]));
    const btc = bySymbol.get('BTCUSDT')!;
    const tail = bySymbol.get('CRVUSDT')!;
    expect(tail.quoteVolume24h).toBeLessThan(btc.quoteVolume24h / 50);
    expect(tail.liquidity.depth[2]!.bidUsd).toBeLessThan(btc.liquidity.depth[2]!.bidUsd / 50);
    // Distinct prices: no two markets look alike.
    expect(new Set(data.map((d) => d.price)).size).toBe(50);
  });

  it('routes, history and alerts take any spelling of a generated symbol', async () => {
    const one = await get('/api/market-data?symbols=crv-usd&strict=true');
    expect(one.statusCode).toBe(200);
    expect((one.json() as { data: Array<{ symbol: string }> }).data.map((d) => d.symbol)).toEqual([
      'CRVUSDT',
    ]);
    expect(one.headers['meridian-normalized']).toBe('symbols=crv-usd->CRVUSDT');
    const history = await get('/api/market-history?symbol=LINK/USDT&interval=1h&strict=true');
    expect(history.statusCode).toBe(200);
    expect((history.json() as { symbol: string; data: unknown[] }).data.length).toBeGreaterThan(0);
    // Outside the universe (rank 51, and a synthetic rank): refused under strict, naming the 50.
    expect((await get('/api/market-data?symbols=LDOUSDT&strict=true')).statusCode).toBe(400);
    const outside = await get('/api/market-data?symbols=SIM0070USDT&strict=true');
    expect(outside.statusCode).toBe(400);
    expect((outside.json() as { supported: string[] }).supported).toEqual(expected);
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alerts',
      headers: user.auth,
      payload: { type: 'price', symbol: 'aave/usdc', condition: { op: 'above', value: 1e9 } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect((rule.json() as { symbol: string }).symbol).toBe('AAVEUSDT');
  });
});

describe('top:N resolved by the live and replay sources when the app is built', () => {
  it('ccxt: the venues’ most liquid spot pairs (fetchTickers), summed over venues', async () => {
    const tickers: Record<string, Record<string, { symbol: string; quoteVolume: number }>> = {
      binance: {
        'BTC/USDT': { symbol: 'BTC/USDT', quoteVolume: 1e9 },
        'PEPE/USDT': { symbol: 'PEPE/USDT', quoteVolume: 4e8 },
        'USDC/USDT': { symbol: 'USDC/USDT', quoteVolume: 5e9 },
        'ETH/USDT': { symbol: 'ETH/USDT', quoteVolume: 3e8 },
      },
      okx: {
        'ETH/USDT': { symbol: 'ETH/USDT', quoteVolume: 2e8 },
        'SOL/USDT': { symbol: 'SOL/USDT', quoteVolume: 1e8 },
      },
    };
    const exchange = (venue: string): CcxtExchange => ({
      id: venue,
      markets: undefined,
      async loadMarkets() {
        return {};
      },
      fetchTickers: async () => tickers[venue]!,
      fetchOHLCV: async () => [],
      watchOrderBook: () => new Promise(() => {}),
      watchTrades: () => new Promise(() => {}),
      close: async () => undefined,
    });
    const t = await createTestApp({
      env: { MERIDIAN_MARKET_SOURCE: 'ccxt:binance,okx', MERIDIAN_SYMBOLS: 'top:2' },
      container: { marketExchange: exchange },
    });
    try {
      // ETH 3e8 + 2e8 = 5e8 beats PEPE's 4e8; USDC/USDT is a stablecoin pair.
      expect(t.container.market.symbols.list).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect(t.container.market.service.symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
    } finally {
      await t.close();
    }
  });

  it('replay: the folder’s symbols with the largest recorded quote volume', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'meridian-universe-'));
    const start = Date.UTC(2021, 0, 1);
    const write = (name: string, price: number, volume: number) =>
      writeFileSync(
        join(folder, name),
        JSON.stringify(
          Array.from({ length: 72 }, (_, i) => [start + i * 3_600_000, price, price, price, price, volume]),
        ),
      );
    write('BTC_USDT-1h.json', 40_000, 1); // 4e4 USD an hour
    write('ETH_USDT-1h.json', 1_000, 100); // 1e5
    write('DOGE_USDT-1h.json', 0.01, 1_000); // 10
    const t = await createTestApp({
      env: { MERIDIAN_MARKET_SOURCE: `replay:${folder}`, MERIDIAN_SYMBOLS: 'top:2' },
    });
    try {
      expect(t.container.market.symbols.list).toEqual(['ETHUSDT', 'BTCUSDT']);
    } finally {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
