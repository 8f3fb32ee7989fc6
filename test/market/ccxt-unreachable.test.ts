import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import ccxt from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CcxtExchange } from '../../src/adapters/market/ccxt/index.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';

/**
 * The live (ccxt) source against a venue that is really unreachable: its REST and WebSocket endpoints point at
 * a local port where nothing listens (connections are refused by the kernel, not by a stub). Then a stand-in
 * Binance starts listening on that very port — REST answers in Binance's wire format from fixtures, a
 * WebSocket stream for books and trades — and the venue must come back on its own, through the whole service.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const exchangeInfo = fixture('binance-exchangeInfo.json');
const klines: unknown[][] = fixture('binance-klines-BTCUSDT-1m.json');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** ccxt's Binance with every endpoint on 127.0.0.1:port (plain http and ws). */
async function binanceAt(port: number): Promise<CcxtExchange> {
  // biome-ignore lint/suspicious/noExplicitAny: ccxt exchange objects are configured field by field here
  type Loose = Record<string, any>;
  const Binance = (ccxt as unknown as { pro: Record<string, new (c: object) => Loose> }).pro.binance!;
  const ex = new Binance({ options: { fetchMarkets: { types: ['spot'] } } });
  for (const [key, url] of Object.entries(ex.urls.api as Record<string, unknown>))
    if (typeof url === 'string')
      ex.urls.api[key] = url.replace(/^https:\/\/[^/]+/, `http://127.0.0.1:${port}`);
  ex.urls.api.ws.spot = `ws://127.0.0.1:${port}/ws`;
  await ex.loadHttpProxyAgent();
  return ex as unknown as CcxtExchange;
}

/** The stand-in venue on `port`: REST from fixtures; on the stream, a book update and a trade every 100 ms. */
async function startBinance(port: number): Promise<{ close(): Promise<void> }> {
  let updateId = 100;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    let body: unknown;
    if (url.pathname.endsWith('/exchangeInfo')) body = exchangeInfo;
    else if (url.pathname.endsWith('/klines')) {
      const start = Number(url.searchParams.get('startTime'));
      const limit = Number(url.searchParams.get('limit') ?? 500);
      body = klines.filter((k) => (k[0] as number) >= start).slice(0, limit);
    } else if (url.pathname.endsWith('/depth'))
      body = {
        lastUpdateId: updateId,
        bids: [
          ['49999.00', '1.0'],
          ['49990.00', '2.0'],
        ],
        asks: [
          ['50010.00', '1.5'],
          ['50020.00', '3.0'],
        ],
      };
    else if (url.pathname.endsWith('/time')) body = { serverTime: Date.now() };
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { code: -1, msg: 'not in this stand-in' }));
  });
  const wss = new WebSocketServer({ server });
  const sockets = new Set<WebSocket>();
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { method?: string; id?: number };
      if (msg.method === 'SUBSCRIBE') socket.send(JSON.stringify({ result: null, id: msg.id }));
    });
  });
  const timer = setInterval(() => {
    const now = Date.now();
    const U = ++updateId;
    for (const s of sockets) {
      s.send(
        JSON.stringify({
          e: 'depthUpdate',
          E: now,
          s: 'BTCUSDT',
          U,
          u: U,
          b: [['49995.00', String(1 + (U % 5))]],
          a: [],
        }),
      );
      s.send(
        JSON.stringify({ e: 'trade', E: now, s: 'BTCUSDT', t: U, p: '50000.00', q: '0.1', T: now, m: false }),
      );
    }
  }, 100);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    async close() {
      clearInterval(timer);
      for (const s of sockets) s.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('a live venue that refuses connections, then comes back', () => {
  it('/readyz names the venue, one warning is logged, market-data says stale; the venue answering clears it', async () => {
    const port = await freePort();
    const lines: Array<{ level: number; msg: string; venue?: string }> = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n'))
          if (line.trim()) lines.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    const t: TestApp = await createTestApp({
      env: {
        LOG_LEVEL: 'info',
        MERIDIAN_MARKET_SOURCE: 'ccxt:binance',
        MERIDIAN_SYMBOLS: 'BTCUSDT',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_MARKET_STALE_MS: '3000',
      },
      container: { logStream, marketExchange: () => binanceAt(port) },
    });
    cleanups.push(() => t.close());
    const market = t.container.market.service;
    // The market job, as the worker runs it (history first: it keeps retrying in the background meanwhile).
    void market.start().catch(() => {});
    cleanups.push(() => market.stop());
    const user = await t.user('viewer');
    const readyz = async () =>
      (await t.app.inject({ url: '/readyz' })).json() as {
        status: string;
        components: Record<string, { status: string; reason?: string }>;
      };

    // Refused: nothing aggregated, so the market answers without a price and says it is stale.
    const refused = await waitFor(
      async () => {
        const res = await t.app.inject({ url: '/api/market-data', headers: user.auth });
        const warned = lines.some((l) => l.level === 40 && /loadMarkets failed/.test(l.msg));
        return warned ? res : undefined;
      },
      'the venue to be refused',
      20_000,
      250,
    );
    expect(refused.statusCode).toBe(200);
    expect(refused.headers['meridian-source']).toBe('ccxt:binance');
    expect(refused.headers['meridian-stale']).toBe('true');
    /** Waits for /readyz to report the market degraded, and checks that it names the venue. */
    const expectVenueNamed = async (what: string) => {
      const report = await waitFor(
        async () => {
          market.tickNow();
          const r = await readyz();
          return r.components.market?.status === 'degraded' ? r : undefined;
        },
        what,
        20_000,
        250,
      );
      expect(report.status).toBe('degraded');
      expect(report.components.market!.reason).toMatch(/binance stale \(BTCUSDT\)/);
    };
    await expectVenueNamed('readiness to name the refused venue');
    // Refused again and again (with backoff): still one warning — one per failure streak, not one per retry.
    const stats = (t.container.market.source as unknown as { stats: { errors: string[] } }).stats;
    await waitFor(
      async () => (stats.errors.filter((e) => e.includes('loadMarkets')).length >= 3 ? true : undefined),
      'three refused attempts',
    );
    expect(stats.errors.at(-1)).toMatch(/ECONNREFUSED|connect|fetch failed|request failed/i);
    expect(lines.filter((l) => l.level === 40 && /loadMarkets/.test(l.msg))).toHaveLength(1);

    // The venue starts answering on the same port.
    const venue = await startBinance(port);
    cleanups.push(() => venue.close());
    const fresh = await waitFor(
      async () => {
        market.tickNow();
        const res = await t.app.inject({ url: '/api/market-data', headers: user.auth });
        const item = (
          res.json() as { data: Array<{ price: number | null; venues: Array<{ stale: boolean }> }> }
        ).data[0];
        return res.headers['meridian-stale'] === 'false' && item?.price && item.venues[0]?.stale === false
          ? res
          : undefined;
      },
      'the venue to come back',
      60_000,
      250,
    );
    const asOf = Date.parse(fresh.headers['meridian-as-of'] as string);
    expect(Math.abs(Date.now() - asOf)).toBeLessThan(3_000);
    const venues = (fresh.json() as { data: Array<{ venues: Array<{ venue: string; stale: boolean }> }> })
      .data[0]!.venues;
    expect(venues).toEqual([expect.objectContaining({ venue: 'binance', stale: false })]);
    expect((await readyz()).components.market?.status).toBe('ok');
    expect(lines.filter((l) => l.level === 30 && /loadMarkets recovered/.test(l.msg))).toHaveLength(1);

    // The venue goes away again (the stand-in stops): readiness names it, answers turn stale.
    await venue.close();
    await expectVenueNamed('readiness to name the venue once it is gone again');
    const stale = await t.app.inject({ url: '/api/market-data', headers: user.auth });
    expect(stale.headers['meridian-stale']).toBe('true');
    // As-Of is the last update the venue gave, not the time of the answer.
    expect(Date.parse(stale.headers['meridian-as-of'] as string)).toBeLessThan(Date.now() - 3_000);
  }, 120_000);
});
