import type { MarketEvent } from '../../../modules/market/index.ts';
import {
  DEFAULT_SYMBOLS,
  canonicalCandidate,
  isDollar,
  isDollarQuote,
  splitSymbol,
} from '../../../modules/identifiers/index.ts';
import {
  type CcxtExchange,
  type CcxtOptions,
  type CcxtTicker,
  ccxtSource,
  createCcxtExchange,
} from './index.ts';

/**
 * `MERIDIAN_SYMBOLS=top:N` with live venues: the N spot pairs with the largest USD quote volume over the
 * configured venues, from each venue's `fetchTickers` (24 h volumes). Dollar quotes fold into one symbol as the
 * identifiers module folds them (BTC/USDT, BTC/USD, BTC/USDC, BTC/FDUSD → BTCUSDT) and their volumes add up,
 * over quotes and over venues. Left out: derivatives, inactive markets, other quotes (ETH/BTC), a stablecoin
 * or fiat base (USDC/USDT, EUR/USDT), and a base that does not survive being written together with its quote
 * (a one-letter base: `SUSDT` normalizes to SUSDT+USDT).
 *
 * The ranking is made once, before the feed is built; the market engine serves that set until the process
 * restarts. While the feed runs the venues are ranked again every day, and what the new ranking would change
 * is logged (it is applied at the next restart).
 */

/** Stablecoins and fiat the identifiers module does not price at 1 USD, still no market to rank as a base. */
const OTHER_STABLE_BASES = new Set([
  'USDE',
  'USDS',
  'USDD',
  'USD1',
  'RLUSD',
  'FRAX',
  'LUSD',
  'GUSD',
  'USDJ',
  'EURC',
  'EURT',
  'EURI',
  'AEUR',
  'EUR',
  'GBP',
  'AUD',
]);

/** Quotes the live adapter streams a symbol from (`resolveMarket` in index.ts tries these). */
const STREAMED_QUOTES = new Set(['USDT', 'USD', 'USDC']);

/** One venue's answer: its tickers, and its markets when loaded (to tell spot from derivatives). */
export interface VenueTickers {
  venue: string;
  tickers: Readonly<Record<string, CcxtTicker>>;
  markets?: Readonly<Record<string, unknown>>;
}

export interface RankedMarket {
  /** Canonical symbol (BTCUSDT). */
  symbol: string;
  /** 24 h quote volume summed over the dollar-quoted spot pairs of every venue, USD. */
  quoteVolumeUsd: number;
  /** Venues that list it. */
  venues: string[];
}

interface MarketInfo {
  spot?: boolean;
  type?: string;
  base?: string;
  quote?: string;
  active?: boolean;
}

/** Base and quote of a spot pair, or undefined for anything else (a swap `BTC/USDT:USDT`, an option). */
function spotPair(
  symbol: string,
  market: MarketInfo | undefined,
): { base: string; quote: string } | undefined {
  if (market) {
    if (market.active === false) return undefined;
    if (!(market.spot ?? market.type === 'spot')) return undefined;
    if (typeof market.base === 'string' && typeof market.quote === 'string')
      return { base: market.base, quote: market.quote };
  }
  const m = /^([^/:]+)\/([^/:]+)$/.exec(symbol);
  return m ? { base: m[1]!, quote: m[2]! } : undefined;
}

/** A ticker's 24 h volume in its quote currency: `quoteVolume`, else base volume times a price. */
function quoteVolumeOf(t: CcxtTicker): number {
  if (typeof t.quoteVolume === 'number' && Number.isFinite(t.quoteVolume)) return t.quoteVolume;
  const price = t.vwap ?? t.last ?? t.close;
  return typeof t.baseVolume === 'number' && typeof price === 'number' ? t.baseVolume * price : 0;
}

/** The `count` largest dollar-quoted spot markets over the venues' tickers, largest first (ties by name). */
export function rankTickers(lists: readonly VenueTickers[], count: number): RankedMarket[] {
  const totals = new Map<string, { usd: number; venues: Set<string>; streamed: boolean }>();
  for (const { venue, tickers, markets } of lists) {
    for (const [key, ticker] of Object.entries(tickers)) {
      const name = ticker.symbol ?? key;
      const pair = spotPair(name, markets?.[name] as MarketInfo | undefined);
      if (!pair) continue;
      const quote = pair.quote.toUpperCase();
      if (!isDollarQuote(quote)) continue;
      const symbol = canonicalCandidate(`${pair.base}/${quote}`);
      // A symbol that does not normalize to itself could not be asked for by its own name.
      if (!symbol || canonicalCandidate(symbol) !== symbol) continue;
      const { base } = splitSymbol(symbol);
      if (isDollar(base) || OTHER_STABLE_BASES.has(base)) continue;
      const usd = quoteVolumeOf(ticker);
      if (!(usd > 0)) continue;
      let total = totals.get(symbol);
      if (!total) {
        total = { usd: 0, venues: new Set(), streamed: false };
        totals.set(symbol, total);
      }
      total.usd += usd;
      total.venues.add(venue);
      if (STREAMED_QUOTES.has(quote)) total.streamed = true;
    }
  }
  return [...totals.entries()]
    .filter(([, t]) => t.streamed)
    .map(([symbol, t]) => ({ symbol, quoteVolumeUsd: t.usd, venues: [...t.venues].sort() }))
    .sort((a, b) => b.quoteVolumeUsd - a.quoteVolumeUsd || (a.symbol < b.symbol ? -1 : 1))
    .slice(0, count);
}

/** One venue's tickers over a fresh exchange object (closed afterwards). */
async function venueTickers(
  venue: string,
  create: (venue: string) => CcxtExchange | Promise<CcxtExchange>,
): Promise<VenueTickers> {
  const ex = await create(venue);
  try {
    if (!ex.fetchTickers) throw new Error(`ccxt ${venue} cannot fetch tickers`);
    await ex.loadMarkets();
    // A venue whose unqualified calls mean derivatives (bybit) is asked for spot; others take no parameter
    // (some pass unknown ones on to the venue's API).
    const defaultType = ex.options?.defaultType;
    const params = defaultType !== undefined && defaultType !== 'spot' ? { type: 'spot' } : undefined;
    const tickers = await ex.fetchTickers(undefined, params);
    return { venue, tickers, markets: ex.markets };
  } finally {
    await ex.close().catch(() => {
      // A failed close of a discarded exchange changes nothing.
    });
  }
}

/** Ranks the venues' pairs; a venue that fails is named in `failed` and left out of the sums. */
export async function rankVenues(
  venues: readonly string[],
  create: (venue: string) => CcxtExchange | Promise<CcxtExchange>,
  count: number,
): Promise<{ ranking: RankedMarket[]; failed: Array<{ venue: string; error: string }> }> {
  const answers = await Promise.allSettled(venues.map((venue) => venueTickers(venue, create)));
  const lists: VenueTickers[] = [];
  const failed: Array<{ venue: string; error: string }> = [];
  answers.forEach((answer, i) => {
    if (answer.status === 'fulfilled') lists.push(answer.value);
    else
      failed.push({
        venue: venues[i]!,
        error: answer.reason instanceof Error ? answer.reason.message : String(answer.reason),
      });
  });
  return { ranking: rankTickers(lists, count), failed };
}

/** Symbols of `next` not in `served` (would join) and of `served` not in `next` (would leave), in their order. */
export function universeChange(
  served: readonly string[],
  next: readonly string[],
): { added: string[]; removed: string[] } {
  const a = new Set(served);
  const b = new Set(next);
  return { added: next.filter((s) => !a.has(s)), removed: served.filter((s) => !b.has(s)) };
}

export interface CcxtTopOptions extends Omit<CcxtOptions, 'symbols'> {
  /** N of `top:N`. */
  count: number;
  /** Re-ranking period while the feed runs; default one day. */
  refreshMs?: number;
  /** Next attempt after a ranking that missed a venue; default one hour. */
  retryMs?: number;
}

/** What the source knows of its universe (tests, and the log lines below). */
export interface CcxtUniverse {
  /** The served set: the ranking at start (or the default symbols when no venue answered then). */
  readonly served: readonly string[];
  /** The newest ranking of every venue (at start or from a refresh); empty until one succeeded. */
  ranking: RankedMarket[];
  rankedAt: number | undefined;
  /** What the newest ranking would change in the served set: applied at the next restart. */
  pending: { added: string[]; removed: string[] };
  refreshes: number;
}

const DAY_MS = 86_400_000;

/**
 * The live source over the top `count` pairs of the venues, ranked now. When no venue answers, the default
 * symbols (as many as asked, at most seven) are served and the ranking is retried while the feed runs; the
 * ranking found then is logged as the pending change, applied at the next restart.
 */
export async function ccxtTopSource(
  options: CcxtTopOptions,
): Promise<ReturnType<typeof ccxtSource> & { universe: CcxtUniverse }> {
  const create = options.createExchange ?? createCcxtExchange;
  const refreshMs = options.refreshMs ?? DAY_MS;
  const retryMs = options.retryMs ?? DAY_MS / 24;
  const log = options.log;
  const top = `top:${options.count}`;
  const first = await rankVenues(options.venues, create, options.count);
  const answered = first.failed.length < options.venues.length;
  const served = answered
    ? first.ranking.map((r) => r.symbol)
    : DEFAULT_SYMBOLS.slice(0, Math.min(options.count, DEFAULT_SYMBOLS.length));
  const universe: CcxtUniverse = {
    served,
    ranking: first.failed.length === 0 ? first.ranking : [],
    rankedAt: first.failed.length === 0 ? options.clock.now() : undefined,
    pending: { added: [], removed: [] },
    refreshes: 0,
  };
  if (!answered)
    log?.warn(
      { failed: first.failed, symbols: served },
      `ccxt: ${top} could not be ranked — no venue answered fetchTickers; serving ${served.join(', ')} until a restart after a ranking succeeds (retried every ${retryMs / 60_000} min)`,
    );
  else {
    if (first.failed.length)
      log?.warn(
        { failed: first.failed },
        `ccxt: ${top} ranked without ${first.failed.map((f) => f.venue).join(', ')} (fetchTickers failed); their volume is missing from the sums`,
      );
    log?.info(
      { count: options.count, venues: options.venues, symbols: served },
      `ccxt: ${top} serves ${served.length} spot pairs by 24 h USD quote volume over ${options.venues.join(', ')}`,
    );
  }

  const source = ccxtSource({ ...options, symbols: served });
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      refresh().catch((error: unknown) => {
        log?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          `ccxt: ${top} re-ranking failed`,
        );
        if (running) schedule(retryMs);
      });
    }, ms);
    timer.unref();
  };
  async function refresh(): Promise<void> {
    const next = await rankVenues(options.venues, create, options.count);
    if (!running) return;
    if (next.failed.length) {
      // A ranking without a venue's volume would report changes that are not there.
      log?.warn(
        { failed: next.failed },
        `ccxt: ${top} re-ranking skipped: fetchTickers failed on ${next.failed.map((f) => f.venue).join(', ')}; retried in ${retryMs / 60_000} min`,
      );
      schedule(retryMs);
      return;
    }
    universe.ranking = next.ranking;
    universe.rankedAt = options.clock.now();
    universe.refreshes++;
    const ranked = next.ranking.map((r) => r.symbol);
    universe.pending = universeChange(served, ranked);
    const { added, removed } = universe.pending;
    log?.info(
      { ranking: ranked, added, removed },
      added.length || removed.length
        ? `ccxt: ${top} re-ranked: ${added.length} pairs would join (${added.join(', ')}) and ${removed.length} leave (${removed.join(', ')}); the served set changes at the next restart`
        : `ccxt: ${top} re-ranked: the served set is unchanged`,
    );
    schedule(refreshMs);
  }

  const startFeed = source.start;
  const stopFeed = source.stop;
  return Object.assign(source, {
    universe,
    async start(sink: (e: MarketEvent) => void) {
      await startFeed(sink);
      running = true;
      schedule(universe.rankedAt === undefined ? retryMs : refreshMs);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await stopFeed();
    },
  });
}
