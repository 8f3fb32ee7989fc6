import { DEFAULT_SYMBOLS } from '../../../modules/identifiers/index.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { CcxtExchange, CcxtTicker } from './index.ts';
import { ccxtTopSource, rankTickers, universeChange } from './universe.ts';
import { systemClock } from '../../../shared/clock.ts';

/**
 * `MERIDIAN_SYMBOLS=top:N` over live venues, offline: stand-in exchanges answer `fetchTickers` in ccxt's
 * unified ticker shape (`symbol: 'BTC/USDT'`, `quoteVolume` in the quote currency, `baseVolume`, `last`, …) and
 * `loadMarkets` with unified markets (`spot`, `type`, `base`, `quote`, `active`).
 */

/** A unified ccxt ticker (the fields a venue's 24 h ticker has; volumes in base and quote). */
const ticker = (symbol: string, quoteVolume: number | undefined, extra: Partial<CcxtTicker> = {}) => ({
  symbol,
  timestamp: 1_767_000_000_000,
  datetime: '2025-12-29T09:20:00.000Z',
  high: undefined,
  low: undefined,
  bid: undefined,
  ask: undefined,
  last: 1,
  close: 1,
  baseVolume: undefined,
  quoteVolume,
  vwap: undefined,
  info: {},
  ...extra,
});

/** A unified ccxt market for a symbol (`BTC/USDT` spot, `BTC/USDT:USDT` swap). */
const market = (symbol: string, extra: Record<string, unknown> = {}) => {
  const [pair, settle] = symbol.split(':');
  const [base, quote] = pair!.split('/');
  return {
    id: symbol.replace(/[/:]/g, ''),
    symbol,
    base,
    quote,
    settle,
    type: settle ? 'swap' : 'spot',
    spot: !settle,
    swap: Boolean(settle),
    active: true,
    ...extra,
  };
};

interface Fake {
  tickers: Record<string, ReturnType<typeof ticker>>;
  markets: Record<string, ReturnType<typeof market>>;
  defaultType?: string;
  /** Throws from fetchTickers while set. */
  down?: boolean;
  fetchParams: unknown[];
  closed: number;
}

function fake(
  tickers: Array<ReturnType<typeof ticker>>,
  markets: Record<string, Record<string, unknown>> = {},
  defaultType?: string,
): Fake {
  return {
    tickers: Object.fromEntries(tickers.map((t) => [t.symbol, t])),
    markets: Object.fromEntries(tickers.map((t) => [t.symbol, market(t.symbol, markets[t.symbol])])),
    defaultType,
    fetchParams: [],
    closed: 0,
  };
}

/** The stand-in exchange for a venue (books and trades answer slowly and stay empty). */
function exchangeOf(id: string, f: Fake): CcxtExchange {
  const slow = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 20));
  return {
    id,
    markets: undefined,
    options: f.defaultType ? { defaultType: f.defaultType } : {},
    async loadMarkets() {
      this.markets = f.markets;
      return f.markets;
    },
    async fetchTickers(symbols?: string[], params?: Record<string, unknown>) {
      f.fetchParams.push(params);
      if (f.down) throw new Error(`${id} 503 Service Unavailable`);
      return symbols ? Object.fromEntries(symbols.map((s) => [s, f.tickers[s]!])) : { ...f.tickers };
    },
    fetchOHLCV: async () => [],
    watchOrderBook: () => slow({ bids: [[1, 1]], asks: [[1.01, 1]] }),
    watchTrades: () => slow([]),
    async close() {
      f.closed++;
    },
  };
}

const binance = () =>
  fake(
    [
      ticker('BTC/USDT', 1e9),
      ticker('ETH/USDT', 5e8),
      ticker('SOL/USDT', 2e8),
      // Stablecoin or fiat against a dollar quote: no market to rank.
      ticker('USDC/USDT', 2e9),
      ticker('FDUSD/USDT', 1e9),
      ticker('EUR/USDT', 4e8),
      // Another dollar quote folds into BTCUSDT and adds up.
      ticker('BTC/FDUSD', 3e8),
      // Not a dollar quote; a derivative; an inactive market; a one-letter base (SUSDT would not round-trip).
      ticker('ETH/BTC', 9e9),
      ticker('BTC/USDT:USDT', 5e9),
      ticker('XRP/USDT', 7e8),
      ticker('S/USDT', 9e8),
      // No quoteVolume: base volume times the last price (1e9 DOGE at 0.1).
      ticker('DOGE/USDT', undefined, { baseVolume: 1e9, last: 0.1, close: 0.1 }),
      // Only quoted in FDUSD: the feed streams USDT, USD or USDC pairs, so it is not ranked.
      ticker('WLD/FDUSD', 9e9),
    ],
    { 'XRP/USDT': { active: false } },
  );
const okx = () =>
  fake(
    [ticker('BTC/USDT', 6e8), ticker('SOL/USDC', 4e8), ticker('ETH/USDT', 2e8), ticker('TON/USDT', 1.5e8)],
    {},
    'spot',
  );
const kraken = () =>
  fake([ticker('BTC/USD', 2e8), ticker('XBT/USD', 1e7), ticker('ETH/EUR', 8e8), ticker('USDT/USD', 3e9)]);

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('ccxt top:N — ranking the venues’ pairs by USD quote volume', () => {
  it('sums dollar-quoted spot volume over quotes and venues, leaves out stablecoin pairs and the rest, keeps N', () => {
    const venues = { binance: binance(), okx: okx(), kraken: kraken() };
    const lists = Object.entries(venues).map(([venue, f]) => ({
      venue,
      tickers: f.tickers,
      markets: f.markets,
    }));
    const all = rankTickers(lists, 100);
    expect(all).toEqual([
      // 1e9 + 3e8 (FDUSD) binance, 6e8 okx, 2e8 + 1e7 (XBT) kraken
      { symbol: 'BTCUSDT', quoteVolumeUsd: 2.11e9, venues: ['binance', 'kraken', 'okx'] },
      { symbol: 'ETHUSDT', quoteVolumeUsd: 7e8, venues: ['binance', 'okx'] },
      { symbol: 'SOLUSDT', quoteVolumeUsd: 6e8, venues: ['binance', 'okx'] },
      { symbol: 'TONUSDT', quoteVolumeUsd: 1.5e8, venues: ['okx'] },
      { symbol: 'DOGEUSDT', quoteVolumeUsd: 1e8, venues: ['binance'] },
    ]);
    expect(rankTickers(lists, 3).map((r) => r.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(rankTickers(lists, 1).map((r) => r.symbol)).toEqual(['BTCUSDT']);
    // Without loaded markets a swap is still told apart by its unified name (BASE/QUOTE:SETTLE).
    const bare = rankTickers([{ venue: 'binance', tickers: venues.binance.tickers }], 10);
    expect(bare.find((r) => r.symbol === 'BTCUSDT')!.quoteVolumeUsd).toBe(1.3e9);
  });

  it('resolves the served set at start, and a daily re-ranking logs what would change without changing it', async () => {
    const venues: Record<string, Fake> = { binance: binance(), okx: okx(), kraken: kraken() };
    const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
    const log = {
      info: (obj: unknown, msg?: string) =>
        lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
      warn: (obj: unknown, msg?: string) =>
        lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    };
    const source = await ccxtTopSource({
      venues: Object.keys(venues),
      count: 3,
      clock: systemClock,
      createExchange: (venue) => exchangeOf(venue, venues[venue]!),
      refreshMs: 40,
      retryMs: 40,
      log,
    });
    cleanups.push(() => source.stop());
    expect(source.symbols).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(source.universe.served).toEqual(source.symbols);
    expect(lines).toEqual([
      {
        level: 'info',
        obj: { count: 3, venues: ['binance', 'okx', 'kraken'], symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] },
        msg: 'ccxt: top:3 serves 3 spot pairs by 24 h USD quote volume over binance, okx, kraken',
      },
    ]);
    // The ranking's exchange objects are closed; okx (spot by default) and the others are asked without
    // parameters.
    for (const f of Object.values(venues)) {
      expect(f.closed).toBe(1);
      expect(f.fetchParams).toEqual([undefined]);
    }

    // TON trades 3e9 the next day; SOL drops out of the top 3.
    venues.okx!.tickers['TON/USDT']!.quoteVolume = 3e9;
    await source.start(() => {});
    await until(() => source.universe.refreshes >= 1);
    expect(source.universe.pending).toEqual({ added: ['TONUSDT'], removed: ['SOLUSDT'] });
    expect(source.universe.ranking.map((r) => r.symbol)).toEqual(['TONUSDT', 'BTCUSDT', 'ETHUSDT']);
    const refreshed = lines.find((l) => l.msg.includes('re-ranked'))!;
    expect(refreshed).toEqual({
      level: 'info',
      obj: { ranking: ['TONUSDT', 'BTCUSDT', 'ETHUSDT'], added: ['TONUSDT'], removed: ['SOLUSDT'] },
      msg: 'ccxt: top:3 re-ranked: 1 pairs would join (TONUSDT) and 1 leave (SOLUSDT); the served set changes at the next restart',
    });
    // Applied at the next restart: the running source keeps serving what it was built with.
    expect(source.symbols).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);

    // A re-ranking that misses a venue is not compared (its volume would be missing from the sums).
    venues.kraken!.down = true;
    const before = source.universe.refreshes;
    await until(() => lines.some((l) => l.msg.includes('re-ranking skipped')));
    expect(lines.find((l) => l.msg.includes('re-ranking skipped'))!.msg).toMatch(
      /^ccxt: top:3 re-ranking skipped: fetchTickers failed on kraken; retried in/,
    );
    expect(source.universe.refreshes).toBe(before);
    await source.stop();
    const stoppedAt = source.universe.refreshes;
    venues.kraken!.down = false;
    await new Promise((r) => setTimeout(r, 150));
    expect(source.universe.refreshes).toBe(stoppedAt); // no re-ranking once stopped
  });

  it('a venue down at start is left out of the sums and named; with none answering, the default symbols are served', async () => {
    const venues: Record<string, Fake> = { binance: binance(), okx: okx() };
    venues.binance!.down = true;
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_o: unknown, msg?: string) => warnings.push(msg ?? '') };
    const partial = await ccxtTopSource({
      venues: ['binance', 'okx'],
      count: 2,
      clock: systemClock,
      createExchange: (venue) => exchangeOf(venue, venues[venue]!),
      log,
    });
    expect(partial.symbols).toEqual(['BTCUSDT', 'SOLUSDT']);
    expect(warnings).toEqual([
      'ccxt: top:2 ranked without binance (fetchTickers failed); their volume is missing from the sums',
    ]);

    venues.okx!.down = true;
    warnings.length = 0;
    const none = await ccxtTopSource({
      venues: ['binance', 'okx'],
      count: 200,
      clock: systemClock,
      createExchange: (venue) => exchangeOf(venue, venues[venue]!),
      log,
    });
    expect(none.symbols).toEqual([...DEFAULT_SYMBOLS]);
    expect(none.universe.ranking).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^ccxt: top:200 could not be ranked — no venue answered fetchTickers; serving BTCUSDT, .*DOGEUSDT until a restart after a ranking succeeds/,
    );
  });

  it('asks a venue whose calls default to derivatives for spot tickers', async () => {
    const bybit = fake([ticker('BTC/USDT', 1e9)], {}, 'swap');
    const source = await ccxtTopSource({
      venues: ['bybit'],
      count: 5,
      clock: systemClock,
      createExchange: () => exchangeOf('bybit', bybit),
    });
    expect(source.symbols).toEqual(['BTCUSDT']);
    expect(bybit.fetchParams).toEqual([{ type: 'spot' }]);
  });

  it('names what a new ranking adds and drops', () => {
    expect(universeChange(['A', 'B', 'C'], ['C', 'D', 'A'])).toEqual({ added: ['D'], removed: ['B'] });
    expect(universeChange(['A', 'B'], ['B', 'A'])).toEqual({ added: [], removed: [] });
  });
});

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
