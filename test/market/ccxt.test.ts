import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import ccxt from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { type CcxtExchange, ccxtSource } from '../../src/adapters/market/ccxt/index.ts';
import type { BookSnapshotEvent, Candle, MarketEvent, TradeEvent } from '../../src/modules/market/index.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { waitUntil } from '../harness/wait.ts';

/**
 * The ccxt adapter, offline: Binance REST answers come from fixtures in Binance's wire format (the
 * client's `fetch` is overridden), and a local WebSocket server stands in for the Binance stream
 * (`urls.api.ws.spot` points at it). Nothing here touches the network beyond 127.0.0.1.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const exchangeInfo = fixture('binance-exchangeInfo.json');
const klines: unknown[][] = fixture('binance-klines-BTCUSDT-1m.json');

interface Venue {
  server: WebSocketServer;
  sockets: WebSocket[];
  connections: number;
  subscriptions: string[];
  depthCalls: number;
  /** lastUpdateId of the next REST depth snapshot. */
  snapshotId: number;
  make(): Promise<CcxtExchange>;
  send(message: unknown): void;
}

async function fakeBinance(): Promise<Venue> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  const venue: Venue = {
    server,
    sockets: [],
    connections: 0,
    subscriptions: [],
    depthCalls: 0,
    snapshotId: 100,
    async make() {
      // biome-ignore lint/suspicious/noExplicitAny: ccxt exchange objects are configured field by field here
      type Loose = Record<string, any>;
      const Binance = (ccxt as unknown as { pro: Record<string, new (c: object) => Loose> }).pro.binance!;
      const ex = new Binance({ options: { fetchMarkets: { types: ['spot'] } } });
      ex.urls.api.ws.spot = `ws://127.0.0.1:${port}/ws`;
      // ccxt needs an explicit agent for plain ws:// (a real venue is wss://).
      await ex.loadHttpProxyAgent();
      ex.fetch = async (url: string) => {
        const u = new URL(url);
        if (u.pathname.endsWith('/exchangeInfo')) return exchangeInfo;
        if (u.pathname.endsWith('/klines')) {
          const start = Number(u.searchParams.get('startTime'));
          const limit = Number(u.searchParams.get('limit') ?? 500);
          return klines.filter((k) => (k[0] as number) >= start).slice(0, limit);
        }
        if (u.pathname.endsWith('/depth')) {
          venue.depthCalls++;
          const id = venue.snapshotId;
          return {
            lastUpdateId: id,
            bids: [
              [`${50_000 - venue.depthCalls}.00`, '1.0'],
              ['49990.00', '2.0'],
            ],
            asks: [
              ['50010.00', '1.5'],
              ['50020.00', '3.0'],
            ],
          };
        }
        throw new Error(`unexpected request in test: ${url}`);
      };
      return ex as unknown as CcxtExchange;
    },
    send(message) {
      for (const s of venue.sockets) s.send(JSON.stringify(message));
    },
  };
  server.on('connection', (socket) => {
    venue.connections++;
    venue.sockets.push(socket);
    socket.on('close', () => {
      venue.sockets = venue.sockets.filter((s) => s !== socket);
    });
    socket.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { method?: string; params?: string[]; id?: number };
      if (msg.method === 'SUBSCRIBE') {
        venue.subscriptions.push(...(msg.params ?? []));
        socket.send(JSON.stringify({ result: null, id: msg.id }));
      }
    });
  });
  return venue;
}

/** Waits until `check` passes (polling the event stream), failing after `ms`. */
const until = (check: () => boolean, ms = 5_000) => waitUntil(check, 'the venue stream condition', ms, 10);

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('ccxt adapter (offline)', () => {
  it('backfills 1m OHLCV over REST, paging by 1000', async () => {
    const venue = await fakeBinance();
    cleanups.push(() => new Promise((r) => venue.server.close(r)));
    const source = ccxtSource({
      venues: ['binance'],
      symbols: ['BTCUSDT'],
      clock: systemClock,
      createExchange: () => venue.make(),
    });
    cleanups.push(() => source.stop());
    const from = klines[0]![0] as number;
    const to = from + 1500 * 60_000;
    const chunks: Candle[][] = [];
    for await (const chunk of source.backfill('binance', 'BTCUSDT', from, to)) chunks.push(chunk);
    expect(chunks.map((c) => c.length)).toEqual([1000, 500]);
    const all = chunks.flat();
    expect(all.map((c) => c.openTime)).toEqual(klines.map((k) => k[0]));
    expect(all[10]).toMatchObject({
      open: Number(klines[10]![1]),
      high: Number(klines[10]![2]),
      low: Number(klines[10]![3]),
      close: Number(klines[10]![4]),
      volume: Number(klines[10]![5]),
    });
  });

  it('a venue unreachable at start: one warning, retried with backoff, streams once it answers, one recovery line', async () => {
    const venue = await fakeBinance();
    cleanups.push(() => new Promise((r) => venue.server.close(r)));
    let reachable = false;
    let attempts = 0;
    const lines: Array<{ level: string; msg: string }> = [];
    const events: MarketEvent[] = [];
    const source = ccxtSource({
      venues: ['binance'],
      symbols: ['BTCUSDT'],
      clock: systemClock,
      createExchange: async () => {
        const ex = await venue.make();
        const answer = (ex as unknown as { fetch: (url: string) => Promise<unknown> }).fetch;
        (ex as unknown as { fetch: (url: string) => Promise<unknown> }).fetch = async (url: string) => {
          if (new URL(url).pathname.endsWith('/exchangeInfo')) {
            attempts++;
            if (!reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:443');
          }
          return answer(url);
        };
        return ex;
      },
      backoff: { initialMs: 10, maxMs: 40 },
      log: {
        warn: (_o, msg) => lines.push({ level: 'warn', msg: msg ?? '' }),
        info: (_o, msg) => lines.push({ level: 'info', msg: msg ?? '' }),
      },
    });
    cleanups.push(() => source.stop());
    await source.start((e) => events.push(e));
    await until(() => attempts >= 5);
    expect(events).toEqual([]);
    expect(lines).toEqual([{ level: 'warn', msg: 'market loadMarkets failed; retrying with backoff' }]);
    reachable = true;
    await until(() => events.some((e) => e.kind === 'book_snapshot'));
    expect(lines.filter((l) => l.msg.includes('loadMarkets'))).toEqual([
      { level: 'warn', msg: 'market loadMarkets failed; retrying with backoff' },
      { level: 'info', msg: 'market loadMarkets recovered' },
    ]);
  });

  it('streams books and trades, resyncs on a sequence gap and reconnects after a dropped connection', async () => {
    const venue = await fakeBinance();
    cleanups.push(() => new Promise((r) => venue.server.close(r)));
    const events: MarketEvent[] = [];
    const source = ccxtSource({
      venues: ['binance'],
      symbols: ['BTCUSDT'],
      clock: systemClock,
      createExchange: () => venue.make(),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    cleanups.push(() => source.stop());
    await source.start((e) => events.push(e));
    const books = () => events.filter((e): e is BookSnapshotEvent => e.kind === 'book_snapshot');
    const trades = () => events.filter((e): e is TradeEvent => e.kind === 'trade');

    await until(
      () =>
        venue.subscriptions.some((s) => s.includes('depth')) &&
        venue.subscriptions.some((s) => s.includes('trade')),
    );
    // 1. First book: the REST snapshot (lastUpdateId 100) applied, then a delta 101..101.
    await until(() => books().length >= 1);
    expect(books()[0]).toMatchObject({
      venue: 'binance',
      symbol: 'BTCUSDT',
      bids: [
        [49_999, 1],
        [49_990, 2],
      ],
      asks: [
        [50_010, 1.5],
        [50_020, 3],
      ],
    });
    const depth = (U: number, u: number, b: string[][], a: string[][]) =>
      venue.send({ e: 'depthUpdate', E: Date.now(), s: 'BTCUSDT', U, u, b, a });
    depth(101, 101, [['49995.00', '0.7']], [['50010.00', '0']]);
    await until(() =>
      books().some((b) => b.bids[0]![0] === 49_999 && b.asks[0]![0] === 50_020 && b.bids.length === 3),
    );
    expect(venue.depthCalls).toBe(1);

    // 2. Trades: Binance `m` = buyer is maker, so m=false is a buy aggressor.
    venue.send({
      e: 'trade',
      E: Date.now(),
      s: 'BTCUSDT',
      t: 1,
      p: '50010.00',
      q: '0.25',
      T: Date.now(),
      m: false,
    });
    venue.send({
      e: 'trade',
      E: Date.now(),
      s: 'BTCUSDT',
      t: 2,
      p: '49999.00',
      q: '0.5',
      T: Date.now(),
      m: true,
    });
    await until(() => trades().length >= 2);
    expect(trades().map((t) => [t.price, t.size, t.side])).toEqual([
      [50_010, 0.25, 'buy'],
      [49_999, 0.5, 'sell'],
    ]);

    // 3. Sequence gap: the next delta should start at 102; 110 means updates were lost → fresh snapshot.
    venue.snapshotId = 200;
    const before = books().length;
    depth(110, 111, [['49000.00', '9']], []);
    await until(() => venue.depthCalls >= 2);
    await until(() => books().length > before && books().at(-1)!.bids[0]![0] === 49_998);
    expect(source.stats.reconnects).toBeGreaterThanOrEqual(1);
    expect(
      books()
        .at(-1)!
        .bids.some((l) => l[0] === 49_000),
    ).toBe(false); // the gapped delta was not applied
    depth(201, 201, [['49998.50', '1']], []);
    await until(() => books().at(-1)!.bids[0]![0] === 49_998.5);

    // 4. Dropped connection: the venue closes the socket; the adapter reconnects and subscribes again.
    const connections = venue.connections;
    const subscriptions = venue.subscriptions.length;
    for (const s of venue.sockets) s.terminate();
    await until(() => venue.connections > connections && venue.subscriptions.length >= subscriptions + 2);
    venue.snapshotId = 300;
    await until(() => venue.depthCalls >= 3);
    const afterDrop = trades().length;
    venue.send({
      e: 'trade',
      E: Date.now(),
      s: 'BTCUSDT',
      t: 3,
      p: '50001.00',
      q: '1',
      T: Date.now(),
      m: false,
    });
    await until(() => trades().length > afterDrop);
    expect(trades().at(-1)).toMatchObject({ price: 50_001, size: 1, side: 'buy' });
    expect(source.stats.errors.some((e) => /order book/.test(e))).toBe(true);
  });
});
