import ccxt from 'ccxt';
import {
  type Candle,
  type Level,
  type MarketEvent,
  type MarketSource,
  estimateQuoteVolume,
} from '../../../modules/market/index.ts';
import { splitSymbol } from '../../../modules/identifiers/index.ts';
import type { Clock } from '../../../shared/clock.ts';
import { exponentialBackoff } from '../../../shared/backoff.ts';
import { createSleeper } from '../../../shared/sleeper.ts';

/** The part of a ccxt pro exchange this adapter uses (tests pass stand-ins configured offline). */
export interface CcxtExchange {
  id: string;
  markets?: Record<string, unknown>;
  loadMarkets(): Promise<Record<string, unknown>>;
  fetchOHLCV(symbol: string, timeframe: string, since?: number, limit?: number): Promise<number[][]>;
  watchOrderBook(
    symbol: string,
    limit?: number,
  ): Promise<{ bids: number[][]; asks: number[][]; timestamp?: number; nonce?: number }>;
  watchTrades(
    symbol: string,
  ): Promise<Array<{ id?: string; timestamp?: number; price: number; amount: number; side?: string }>>;
  close(): Promise<unknown>;
  /** ccxt's per-exchange options (`defaultType`: which market type an unqualified call means). */
  options?: Record<string, unknown>;
  /** Every ticker of the venue (`MERIDIAN_SYMBOLS=top:N` ranks by them; universe.ts). */
  fetchTickers?(symbols?: string[], params?: Record<string, unknown>): Promise<Record<string, CcxtTicker>>;
}

/** The fields of ccxt's unified ticker that the ranking reads (amounts in the pair's base and quote). */
export interface CcxtTicker {
  symbol: string;
  quoteVolume?: number;
  baseVolume?: number;
  last?: number;
  close?: number;
  vwap?: number;
}

export interface CcxtOptions {
  venues: readonly string[];
  symbols: readonly string[];
  clock: Clock;
  /** Builds the exchange for a venue; default `new ccxt.pro[venue]({ enableRateLimit: true })`. */
  createExchange?: (venue: string) => CcxtExchange | Promise<CcxtExchange>;
  /** Reconnect backoff: first delay, cap (ms). */
  backoff?: { initialMs: number; maxMs: number };
  /** Levels per side forwarded from each book. */
  depth?: number;
  log?: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

/** A failing connection says so once, then at most this often while it keeps failing. */
const REPEAT_WARNING_MS = 5 * 60_000;

/** The default exchange of a venue: `new ccxt.pro[venue]({ enableRateLimit: true, newUpdates: true })`. */
export const createCcxtExchange = (venue: string): CcxtExchange => {
  const pro = (ccxt as unknown as { pro: Record<string, new (config: object) => CcxtExchange> }).pro;
  const Ctor = pro[venue];
  if (!Ctor) throw new Error(`ccxt has no WebSocket (pro) exchange named ${venue}`);
  return new Ctor({ enableRateLimit: true, newUpdates: true });
};

/** Resolves a canonical symbol to the venue's ccxt market: BASE/USDT, else BASE/USD, else BASE/USDC. */
function resolveMarket(exchange: CcxtExchange, symbol: string): string | undefined {
  const { base, quote } = splitSymbol(symbol);
  const markets = exchange.markets ?? {};
  for (const q of [quote, 'USD', 'USDC']) {
    const s = `${base}/${q}`;
    if (s in markets) return s;
  }
  return undefined;
}

/**
 * Live venues through ccxt: OHLCV backfill over REST; `watchOrderBook` and `watchTrades` over WebSocket.
 * Every watch loop reconnects with exponential backoff (with jitter) after an error or a dropped
 * connection. ccxt checks each venue's book sequence and throws on a gap; the loop then subscribes again,
 * which makes ccxt fetch a fresh snapshot: a resync. Books are forwarded as snapshots of the top `depth`
 * levels (ccxt already maintains the book), so downstream sequence numbers are our own.
 */
export function ccxtSource(options: CcxtOptions): MarketSource & {
  stats: { reconnects: number; errors: string[]; books: number; trades: number };
  exchanges: Map<string, CcxtExchange>;
} {
  const create = options.createExchange ?? createCcxtExchange;
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  const depth = options.depth ?? 50;
  const exchanges = new Map<string, CcxtExchange>();
  const stats = { reconnects: 0, errors: [] as string[], books: 0, trades: 0 };
  let running = false;
  const loops: Promise<void>[] = [];

  const exchange = async (venue: string) => {
    let ex = exchanges.get(venue);
    if (!ex) {
      ex = await create(venue);
      exchanges.set(venue, ex);
    }
    return ex;
  };

  const { sleep, wakeAll } = createSleeper();

  /** Failure streaks per venue, symbol and stream: one warning when a streak starts, one info when it ends. */
  const streaks = new Map<string, { since: number; attempts: number; warnedAt: number }>();
  const note = (venue: string, symbol: string, what: string, error: unknown) => {
    const message = (error as Error)?.message ?? String(error);
    stats.errors.push(`${venue} ${symbol} ${what}: ${message}`);
    if (stats.errors.length > 50) stats.errors.shift();
    const key = `${venue}|${symbol}|${what}`;
    const now = Date.now();
    const streak = streaks.get(key);
    if (!streak) {
      streaks.set(key, { since: now, attempts: 1, warnedAt: now });
      options.log?.warn({ venue, symbol, err: message }, `market ${what} failed; retrying with backoff`);
      return;
    }
    streak.attempts++;
    if (now - streak.warnedAt >= REPEAT_WARNING_MS) {
      streak.warnedAt = now;
      options.log?.warn(
        {
          venue,
          symbol,
          err: message,
          attempts: streak.attempts,
          failingForS: Math.round((now - streak.since) / 1000),
        },
        `market ${what} still failing`,
      );
    }
  };
  const recovered = (venue: string, symbol: string, what: string) => {
    const key = `${venue}|${symbol}|${what}`;
    const streak = streaks.get(key);
    if (!streak) return;
    streaks.delete(key);
    options.log?.info(
      {
        venue,
        symbol,
        attempts: streak.attempts,
        failedForS: Math.round((Date.now() - streak.since) / 1000),
      },
      `market ${what} recovered`,
    );
  };

  /** The venue's exchange with its markets loaded, retried with backoff until it works or the feed stops. */
  async function loadedExchange(venue: string): Promise<CcxtExchange | undefined> {
    const delays = exponentialBackoff(backoff);
    while (running) {
      try {
        const ex = await exchange(venue);
        await ex.loadMarkets();
        recovered(venue, '*', 'loadMarkets');
        return ex;
      } catch (error) {
        // ccxt keeps a failed loadMarkets promise and hands it back on every later call: the next attempt
        // needs a fresh exchange object.
        const failed = exchanges.get(venue);
        exchanges.delete(venue);
        failed?.close().catch(() => {
          // The exchange object is discarded either way; a failed close of its connections changes nothing.
        });
        if (!running) return undefined;
        note(venue, '*', 'loadMarkets', error);
        await sleep(delays.next());
      }
    }
    return undefined;
  }

  async function loop(venue: string, symbol: string, what: string, body: () => Promise<void>): Promise<void> {
    const delays = exponentialBackoff(backoff);
    while (running) {
      try {
        await body();
        delays.reset();
        recovered(venue, symbol, what);
      } catch (error) {
        if (!running) return;
        note(venue, symbol, what, error);
        stats.reconnects++;
        await sleep(delays.next());
      }
    }
  }

  const levels = (rows: number[][]): Level[] => rows.slice(0, depth).map((r) => [r[0]!, r[1]!]);

  return {
    kind: 'ccxt',
    venues: [...options.venues],
    symbols: [...options.symbols],
    persistVenueHistory: true,
    stats,
    exchanges,
    async *backfill(venue, symbol, fromMs, toMs) {
      let market: string | undefined;
      let ex: CcxtExchange;
      try {
        ex = await exchange(venue);
        await ex.loadMarkets();
        market = resolveMarket(ex, symbol);
      } catch (error) {
        note(venue, symbol, 'backfill', error);
        return;
      }
      if (!market) return;
      let since = fromMs;
      let failures = 0;
      const delays = exponentialBackoff({ ...backoff, initialMs: backoff.initialMs * 2 });
      while (since < toMs) {
        let rows: number[][];
        try {
          rows = await ex.fetchOHLCV(market, '1m', since, 1000);
        } catch (error) {
          note(venue, symbol, 'backfill', error);
          if (++failures > 4) return;
          await sleep(delays.next());
          continue;
        }
        failures = 0;
        delays.reset();
        const candles: Candle[] = [];
        for (const r of rows) {
          const [t, o, h, l, c, v] = r as [number, number, number, number, number, number];
          if (t < since || t >= toMs) continue;
          candles.push({
            openTime: t,
            open: o,
            high: h,
            low: l,
            close: c,
            volume: v,
            quoteVolume: estimateQuoteVolume(o, h, l, c, v),
          });
        }
        if (candles.length === 0) return;
        yield candles;
        since = candles.at(-1)!.openTime + 60_000;
      }
    },
    async start(sink: (e: MarketEvent) => void) {
      running = true;
      // A venue unreachable at start is retried in the background (with backoff) until it answers; the
      // others start at once.
      for (const venue of options.venues)
        loops.push(
          loadedExchange(venue).then((ex) => {
            if (ex) watchVenue(venue, ex);
          }),
        );

      function watchVenue(venue: string, ex: CcxtExchange) {
        for (const symbol of options.symbols) {
          const market = resolveMarket(ex, symbol);
          if (!market) continue;
          let sequence = 0;
          loops.push(
            loop(venue, symbol, 'order book', async () => {
              const ob = await ex.watchOrderBook(market);
              if (!running) return;
              const now = options.clock.now();
              stats.books++;
              sink({
                kind: 'book_snapshot',
                venue,
                symbol,
                sequence: ++sequence,
                bids: levels(ob.bids),
                asks: levels(ob.asks),
                exchangeTime: ob.timestamp ?? now,
                receiveTime: now,
              });
            }),
          );
          let lastTrade = 0;
          const seen = new Set<string>();
          loops.push(
            loop(venue, symbol, 'trades', async () => {
              const trades = await ex.watchTrades(market);
              if (!running) return;
              const now = options.clock.now();
              for (const t of trades) {
                const time = t.timestamp ?? now;
                const key = t.id ?? `${time}|${t.price}|${t.amount}`;
                if (time < lastTrade || seen.has(key)) continue;
                seen.add(key);
                if (seen.size > 5000) seen.clear();
                lastTrade = time;
                stats.trades++;
                sink({
                  kind: 'trade',
                  venue,
                  symbol,
                  price: t.price,
                  size: t.amount,
                  side: t.side === 'sell' ? 'sell' : 'buy',
                  exchangeTime: time,
                  receiveTime: now,
                });
              }
            }),
          );
        }
      }
    },
    async stop() {
      running = false;
      wakeAll();
      // At stop every exchange is closed; one that fails to close is discarded all the same.
      await Promise.all(
        [...exchanges.values()].map((ex) =>
          ex.close().catch((error: unknown) => {
            options.log?.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'ccxt: closing an exchange failed',
            );
          }),
        ),
      );
      await Promise.race([Promise.allSettled(loops), new Promise((r) => setTimeout(r, 2_000))]);
      loops.length = 0;
    },
  };
}
