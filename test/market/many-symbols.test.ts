import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedSource } from '../../src/adapters/market/simulated/index.ts';
import {
  type MarketRuntime,
  createMarketService,
  createMemoryCandleRepository,
} from '../../src/modules/market/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { waitUntil } from '../harness/wait.ts';
import { type Client, connect, refused } from '../push/client.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;
type Page = { data: Array<{ symbol: string; price: number | null }>; nextCursor: string | null };
type Frame = { type: string; at: string; data: Array<{ symbol: string }> };

const NOW = Date.UTC(2026, 0, 10, 12, 0, 30);

/**
 * 250 symbols: BTCUSDT and ETHUSDT, then 248 simulated ones, every eighth quoted in BTC (31), the rest in USDT.
 * The configured order is the answer order.
 */
const SYMBOLS = [
  'BTCUSDT',
  'ETHUSDT',
  ...Array.from({ length: 248 }, (_, i) => {
    const base = `Q${String(i).padStart(3, '0')}`;
    return i % 8 === 3 ? `${base}BTC` : `${base}USDT`;
  }),
];
const BTC_QUOTED = SYMBOLS.filter((s) => s.endsWith('BTC'));
const USDT_QUOTED = SYMBOLS.filter((s) => s.endsWith('USDT'));

/**
 * An API process serving 250 symbols. Its market follows a worker's published snapshots (as an API replica
 * does): the worker is a market service of its own over the same simulated source, without history (a start
 * in well under a second), publishing each tick's body on the app's bus.
 */
describe('market data and the /market stream with 250 symbols', () => {
  let t: TestApp;
  let user: TestUser;
  let worker: MarketRuntime;
  let wsUrl: string;
  const clock = manualClock(NOW);
  const open: Client[] = [];

  /**
   * One market second later (inside the staleness window): the worker ticks and publishes; the app adopts
   * and pushes. The worker ticks only here (its own timer is set to an hour), so a test knows which snapshot
   * it reads.
   */
  const tick = () => {
    clock.advance(1_000);
    worker.tickNow();
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MERIDIAN_SYMBOLS: SYMBOLS.join(','),
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
        MERIDIAN_RATE_LIMIT_STANDARD: '100000',
      },
      container: { clock },
    });
    expect(t.container.market.symbols.list).toEqual(SYMBOLS);
    user = await t.user('viewer');
    worker = createMarketService({
      source: simulatedSource({ symbols: SYMBOLS, seed: 7, clock }),
      repository: createMemoryCandleRepository(),
      clock,
      symbols: SYMBOLS,
      historyDays: 0,
      snapshotMs: 3_600_000,
      onPublish: (...args) => {
        if (args[0] !== 'snapshot') return;
        const { body, follower, ...rest } = args[1];
        void t.container.bus.publish(topics.marketSnapshot, {
          ...rest,
          body: body.toString('utf8'),
          ...follower(),
          term: 0,
        });
      },
    });
    await worker.start();
    // The live feed's first books arrive within one feed interval (250 ms) of the start.
    await waitUntil(() => {
      tick();
      return SYMBOLS.every((s) => worker.snapshot(s)?.mid != null);
    }, 'a price for every symbol');
    expect(t.container.market.service.running()).toBe(false);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/market`;
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await worker?.stop();
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...user.auth, ...headers } });

  /** Follows nextCursor from `first` to the end; returns every page. */
  async function walk(first: string, between?: () => void): Promise<Page[]> {
    const pages: Page[] = [];
    let url: string | undefined = first;
    while (url !== undefined) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['meridian-source']).toBe('simulated');
      const page = res.json() as Page;
      pages.push(page);
      between?.();
      const sep = first.includes('?') ? '&' : '?';
      url = page.nextCursor === null ? undefined : `${first}${sep}cursor=${page.nextCursor}`;
      expect(pages.length).toBeLessThan(300);
    }
    return pages;
  }
  const symbolsOf = (pages: Page[]) => pages.flatMap((p) => p.data.map((d) => d.symbol));

  it('no parameters: the first 100 symbols in configured order, and a cursor that walks every symbol exactly once', async () => {
    const res = await get('/api/market-data');
    expect(res.statusCode).toBe(200);
    const first = res.json() as Page;
    expect(first.data.map((d) => d.symbol)).toEqual(SYMBOLS.slice(0, 100));
    expect(first.nextCursor).toEqual(expect.any(String));
    for (const d of first.data) expect(d.price).toBeGreaterThan(0);

    // New snapshots arrive between pages: the position is a symbol in a stable order, so nothing moves.
    const pages = await walk('/api/market-data', tick);
    expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
    expect(symbolsOf(pages)).toEqual(SYMBOLS);
    expect(pages.at(-1)!.nextCursor).toBeNull();

    const small = await walk('/api/market-data?limit=37');
    expect(small.every((p) => p.data.length <= 37)).toBe(true);
    expect(small).toHaveLength(Math.ceil(250 / 37));
    expect(symbolsOf(small)).toEqual(SYMBOLS);

    // A limit above the maximum is clamped (and said so), like every page limit of this API.
    const big = await get('/api/market-data?limit=1000');
    expect(big.headers['meridian-normalized']).toBe('limit=1000->500');
    expect((big.json() as Page).data.map((d) => d.symbol)).toEqual(SYMBOLS);
    expect((big.json() as Page).nextCursor).toBeNull();
  });

  it('a page is joined once per snapshot: the same bytes and ETag for every client, 304 when unchanged', async () => {
    const plain = await get('/api/market-data');
    const explicit = await get('/api/market-data?limit=100');
    expect(explicit.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect(plain.headers.etag).toEqual(expect.any(String));
    expect(explicit.headers.etag).toBe(plain.headers.etag);
    const again = await get('/api/market-data', { 'if-none-match': plain.headers.etag as string });
    expect(again.statusCode).toBe(304);
    tick();
    const moved = await get('/api/market-data', { 'if-none-match': plain.headers.etag as string });
    expect(moved.statusCode).toBe(200);
  });

  it('quote= keeps the symbols quoted in it (normalized like symbols), pages over them, and refuses an unknown quote', async () => {
    const btc = await get('/api/market-data?quote=btc');
    expect(btc.statusCode).toBe(200);
    expect(btc.headers['meridian-normalized']).toBe('quote=btc->BTC');
    expect((btc.json() as Page).data.map((d) => d.symbol)).toEqual(BTC_QUOTED);
    expect((btc.json() as Page).nextCursor).toBeNull();

    // USD is a dollar spelling of USDT, as in symbols; 219 symbols in pages of 50.
    const usdt = await walk('/api/market-data?quote=USD&limit=50');
    expect(usdt.map((p) => p.data.length)).toEqual([50, 50, 50, 50, 19]);
    expect(symbolsOf(usdt)).toEqual(USDT_QUOTED);

    // With symbols: the listed ones quoted in it, in the order given.
    const both = await get(`/api/market-data?symbols=${BTC_QUOTED[2]},BTCUSDT,${BTC_QUOTED[0]}&quote=BTC`);
    expect((both.json() as Page).data.map((d) => d.symbol)).toEqual([BTC_QUOTED[2], BTC_QUOTED[0]]);

    // A known quote no symbol has: an empty answer, not an error.
    const eur = await get('/api/market-data?quote=EUR');
    expect(eur.json()).toEqual({ data: [], nextCursor: null });

    const bad = await get('/api/market-data?quote=XYZ');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = bad.json() as Json;
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors[0].pointer).toBe('/query/quote');
    expect(problem.errors[0].message).toMatch(/USDT/);
  });

  it('answers 400 problem+json naming cursor or limit for a bad one, never a 500', async () => {
    const { nextCursor } = (await get('/api/market-data?quote=BTC&limit=5')).json() as Page;
    // A history cursor as /api/market-history issues them (symbol, interval, next from, end).
    const history = Buffer.from(JSON.stringify({ s: 'BTCUSDT', i: '1m', f: NOW - 120_000, t: NOW })).toString(
      'base64url',
    );
    expect((await get(`/api/market-history?cursor=${history}`)).statusCode).toBe(200);
    const cases: Array<[string, string]> = [
      ['/api/market-data?cursor=nonsense', '/query/cursor'],
      [`/api/market-data?cursor=${Buffer.from('{"a":7}').toString('base64url')}`, '/query/cursor'],
      [`/api/market-data?cursor=${Buffer.from('[1]').toString('base64url')}`, '/query/cursor'],
      [`/api/market-data?cursor=${'x'.repeat(201)}`, '/query/cursor'],
      // Another endpoint's cursor, and this one's with another selection (its symbol is not in it).
      [`/api/market-data?cursor=${history}`, '/query/cursor'],
      [`/api/market-data?quote=USDT&cursor=${nextCursor}`, '/query/cursor'],
      // A market-data cursor is not a history cursor either.
      [`/api/market-history?cursor=${nextCursor}`, '/query/cursor'],
      ['/api/market-data?limit=0', '/query/limit'],
      ['/api/market-data?limit=-3', '/query/limit'],
      ['/api/market-data?limit=2.5', '/query/limit'],
      ['/api/market-data?limit=abc', '/query/limit'],
    ];
    for (const [url, pointer] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      const body = res.json() as Json;
      expect(body.code, url).toBe('validation_failed');
      expect(
        body.errors.map((e: { pointer: string }) => e.pointer),
        url,
      ).toContain(pointer);
    }
    // The same cursor with its own selection goes on, at any notional (that page is serialized per request).
    const next = await get(`/api/market-data?quote=BTC&limit=5&cursor=${nextCursor}`);
    expect((next.json() as Page).data.map((d) => d.symbol)).toEqual(BTC_QUOTED.slice(5, 10));
    const priced = (
      await get(`/api/market-data?quote=BTC&limit=5&notional=1000&cursor=${nextCursor}`)
    ).json() as Json;
    expect(priced.data.map((d: { symbol: string }) => d.symbol)).toEqual(BTC_QUOTED.slice(5, 10));
    for (const d of priced.data) expect(d.liquidity.slippage.notional).toBe(1000);
    expect(priced.nextCursor).toBe((next.json() as Page).nextCursor);
  });

  it('/market?symbols=…: a socket receives only its symbols, on connect and after each change', async () => {
    const subset = [SYMBOLS[40]!, 'BTCUSDT', SYMBOLS[3]!];
    const a = await connect(`${wsUrl}?symbols=${subset.join(',')}`, { headers: user.auth });
    // The same set in another spelling and order: the same subscription (configured order).
    const b = await connect(`${wsUrl}?symbol=${SYMBOLS[3]!.toLowerCase()}&symbol=${SYMBOLS[40]},btc-usd`, {
      headers: user.auth,
    });
    const btc = await connect(`${wsUrl}?quote=btc`, { headers: user.auth });
    const all = await connect(wsUrl, { headers: user.auth });
    open.push(a, b, btc, all);
    expect(b.headers['meridian-normalized']).toBe(
      `symbols=${SYMBOLS[3]!.toLowerCase()}->${SYMBOLS[3]}; symbols=btc-usd->BTCUSDT`,
    );
    expect(btc.headers['meridian-normalized']).toBe('quote=btc->BTC');

    const inOrder = ['BTCUSDT', SYMBOLS[3]!, SYMBOLS[40]!];
    const symbolsIn = (f: Frame) => f.data.map((d) => d.symbol);
    for (const c of [a, b]) expect(symbolsIn(await c.next((m) => m.type === 'snapshot'))).toEqual(inOrder);
    expect(symbolsIn(await btc.next((m) => m.type === 'snapshot'))).toEqual(BTC_QUOTED);
    expect(symbolsIn(await all.next((m) => m.type === 'snapshot'))).toEqual(SYMBOLS);

    const seen = [a, b, btc, all].map((c) => c.messages.length);
    tick();
    const frames = (await Promise.all(
      [a, b, btc, all].map((c, i) => c.next((m) => m.type === 'snapshot', 5_000, seen[i])),
    )) as Frame[];
    expect(frames.map(symbolsIn)).toEqual([inOrder, inOrder, BTC_QUOTED, SYMBOLS]);
    for (const f of frames) expect(f.at).toBe(new Date(clock.now()).toISOString());
    // The subset's frame is the REST answer's items for those symbols, from the same snapshot.
    const rest = (await get(`/api/market-data?symbols=${inOrder.join(',')}`)).json() as Page;
    expect(frames[0]!.data).toEqual(rest.data);
  });

  it('/market refuses an unknown quote, an unsupported symbol with strict=true, and an overlong list before the upgrade', async () => {
    const quote = await refused(`${wsUrl}?quote=XYZ`, { headers: user.auth });
    expect(quote.status).toBe(400);
    expect(quote.headers['content-type']).toMatch(/problem\+json/);
    expect(quote.body.errors[0].pointer).toBe('/query/quote');
    const strict = await refused(`${wsUrl}?symbols=NOPEUSDT&strict=true`, { headers: user.auth });
    expect(strict.status).toBe(400);
    expect(strict.body.code).toBe('unsupported_symbol');
    const long = await refused(`${wsUrl}?symbols=${Array(501).fill('BTCUSDT').join(',')}`, {
      headers: user.auth,
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].pointer).toBe('/query/symbols');
  });
});
