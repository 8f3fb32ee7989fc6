import { type MarketRuntime, createMarketDataPages, withNextCursor } from '../../modules/market/index.ts';
import {
  INTERVAL_MS,
  type Interval,
  type SupportedSymbols,
  normalizeInterval,
} from '../../modules/identifiers/index.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { type ProblemDetail, validationError } from '../../shared/errors.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { sendBytes } from '../reply.ts';
import { parseTime } from '../query-time.ts';
import { marketProvenance, provenanceHeaderSource } from '../provenance.ts';
import { createMarketSelector } from '../market-selection.ts';
import {
  DEFAULT_SYMBOLS_PER_PAGE,
  HistoryQuery,
  HistoryResponse,
  MAX_SYMBOLS_PER_PAGE,
  MarketDataQuery,
  MarketDataResponse,
} from './market.schemas.ts';

/** The most candles one history page holds; a larger `limit` is clamped. */
const MAX_CANDLES = 1000;

/** A history page's position: symbol, interval, the next page's `from` and the range's end. */
interface HistoryCursor {
  s: string;
  i: Interval;
  f: number;
  t: number;
}

/** What each endpoint reads back from a cursor: the shape it issues, else nothing (another endpoint's). */
const shaped =
  <T>(accepts: (c: Record<string, unknown>) => boolean) =>
  (value: unknown): T | undefined =>
    typeof value === 'object' && value !== null && accepts(value as Record<string, unknown>)
      ? (value as T)
      : undefined;

const historyCursor = shaped<HistoryCursor>(
  (c) =>
    typeof c.s === 'string' &&
    typeof c.i === 'string' &&
    Object.hasOwn(INTERVAL_MS, c.i) &&
    Number.isInteger(c.f) &&
    Number.isInteger(c.t),
);

/** A market-data page's position: the last symbol it answered (`a`fter); the next page starts past it. */
interface MarketDataCursor {
  a: string;
}

const marketDataCursor = shaped<MarketDataCursor>(
  (c) => typeof c.a === 'string' && c.a.length > 0 && c.a.length <= 40,
);

/** GET /api/market-data and GET /api/market-history. */
export interface MarketRouteDeps {
  market: Pick<
    MarketRuntime,
    | 'candlesBetween'
    | 'defaultNotional'
    | 'marketDataBody'
    | 'marketDataBytes'
    | 'now'
    | 'openCandle'
    | 'symbols'
    | 'asOf'
    | 'staleMs'
    | 'historyState'
  >;
  /** The supported symbol set (the symbols the market serves). */
  symbols: SupportedSymbols;
  /** What the market data comes from, as answers name it (`Meridian-Source`). */
  source: string;
}

export function marketRoutes(deps: MarketRouteDeps): RouteModule {
  const { market, symbols } = deps;
  const provenanceHeaders = provenanceHeaderSource(marketProvenance(market, deps.source));
  const selector = createMarketSelector(symbols);
  const pages = createMarketDataPages(market);

  /** Where a page of `list` from `start` (at most `limit` symbols) ends, and the cursor past it. */
  const bounds = (list: readonly string[], start: number, limit: number) => {
    const end = Math.min(start + limit, list.length);
    const nextCursor =
      end < list.length ? encodeCursor({ a: list[end - 1]! } satisfies MarketDataCursor) : null;
    return { page: start === 0 && end === list.length ? list : list.slice(start, end), nextCursor };
  };

  /** A page at the default notional: bytes kept per snapshot, one buffer per page whoever asks. */
  const defaultPage = (list: readonly string[], start: number, limit: number): Buffer => {
    const { page, nextCursor } = bounds(list, start, limit);
    return pages.page(page === symbols.list ? 'all' : page, nextCursor);
  };

  /** The plain request (no parameters): the first page of every symbol, in configured order. */
  const firstPage = () => defaultPage(symbols.list, 0, DEFAULT_SYMBOLS_PER_PAGE);

  return (app) => {
    app.get(
      '/api/market-data',
      {
        config: { permission: 'market:read' },
        compress: false, // sendBytes encodes the body itself
        schema: {
          operationId: 'getMarketData',
          tags: ['market'],
          summary:
            'Merged market view per symbol: price, 24 h statistics, depth, slippage and venues; a page of symbols at a time',
          querystring: MarketDataQuery,
          response: {
            200: MarketDataResponse,
            400: ProblemSchema,
            ...authProblems,
          },
        },
      },
      // Synchronous (nothing to await): an async handler costs a promise and a microtask turn per request.
      (request, reply) => {
        const q = request.query;
        reply.type('application/json; charset=utf-8');
        for (const [name, value] of provenanceHeaders()) reply.header(name, value);
        if (
          q.symbols === undefined &&
          q.quote === undefined &&
          q.limit === undefined &&
          q.cursor === undefined &&
          (q.notional === undefined || q.notional === market.defaultNotional)
        ) {
          // The hot path: the first page, joined once per aggregation tick.
          sendBytes(reply, firstPage());
          return;
        }
        const log = new NormalizationLog();
        const list = selector.select(
          { symbols: q.symbols?.split(','), quote: q.quote, strict: q.strict },
          log,
        );
        const limit = Math.min(q.limit ?? DEFAULT_SYMBOLS_PER_PAGE, MAX_SYMBOLS_PER_PAGE);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
        let start = 0;
        if (q.cursor !== undefined) {
          const after = decodeCursor(q.cursor, marketDataCursor).a;
          const at = list.indexOf(after);
          if (at < 0)
            throw validationError([
              {
                pointer: '/query/cursor',
                message:
                  'is not a position in this selection: send the symbols and quote of the page it came from (or start again without it)',
              },
            ]);
          start = at + 1;
        }
        log.apply(reply);
        if (q.notional === undefined || q.notional === market.defaultNotional) {
          sendBytes(reply, defaultPage(list, start, limit));
          return;
        }
        // Another notional re-walks the books: serialized for this request.
        const { page, nextCursor } = bounds(list, start, limit);
        sendBytes(reply, withNextCursor(market.marketDataBody(page, q.notional), nextCursor));
      },
    );

    app.get(
      '/api/market-history',
      {
        config: { permission: 'market:read' },
        schema: {
          operationId: 'getMarketHistory',
          tags: ['market'],
          summary: 'OHLCV candles, oldest first, with a cursor to the next page',
          querystring: HistoryQuery,
          response: { 200: HistoryResponse, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const log = new NormalizationLog();
        const limitAsked = q.limit ?? 500;
        const limit = Math.min(limitAsked, MAX_CANDLES);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
        let symbol: string;
        let interval: Interval;
        let from: number;
        let to: number;
        const now = market.now();
        if (q.cursor !== undefined) {
          const c = decodeCursor(q.cursor, historyCursor);
          symbol = c.s;
          interval = c.i;
          from = c.f;
          to = c.t;
        } else {
          // Every problem of the request in one answer: a missing symbol and bad times together.
          const problems: ProblemDetail[] = [];
          if (q.symbol === undefined) problems.push({ pointer: '/query/symbol', message: 'is required' });
          const fromGiven = q.from !== undefined ? parseTime(q.from, 'from', problems) : undefined;
          const toGiven = q.to !== undefined ? parseTime(q.to, 'to', problems) : undefined;
          if (problems.length || q.symbol === undefined) throw validationError(problems);
          const s = symbols.normalize(q.symbol, { strict: q.strict });
          log.add('symbol', q.symbol, s.value);
          const i = normalizeInterval(q.interval, { strict: q.strict });
          log.add('interval', q.interval, i.value);
          symbol = s.value;
          interval = i.value;
          const ms = INTERVAL_MS[interval];
          to = toGiven ?? Math.floor(now / ms) * ms + ms;
          from = fromGiven ?? to - limit * ms;
          if (from >= to) {
            throw validationError([{ pointer: '/query/from', message: 'must be before `to`' }]);
          }
        }
        const ms = INTERVAL_MS[interval];
        // Align `from` to the interval so a bar whose open time precedes `from` is not half-included.
        const alignedFrom = Math.ceil(from / ms) * ms;
        const candles = await market.candlesBetween({
          symbol,
          interval,
          fromMs: alignedFrom,
          toMs: to,
          limit,
        });
        const open = market.openCandle(symbol, interval);
        const data = candles.map((c) => ({
          timestamp: new Date(c.openTime).toISOString(),
          openTime: c.openTime,
          open: c.open,
          high: c.high,
          low: c.low,
          close: c.close,
          volume: c.volume,
          quoteVolume: c.quoteVolume,
          closed: !(open !== undefined && c.openTime === open.openTime),
        }));
        const last = candles.at(-1);
        const nextFrom = last ? last.openTime + ms : to;
        const nextCursor =
          candles.length === limit && nextFrom < to
            ? encodeCursor({ s: symbol, i: interval, f: nextFrom, t: to } satisfies HistoryCursor)
            : null;
        log.apply(reply);
        // History comes from the same feed: its provenance is the feed's (a dead feed means no new bars).
        for (const [name, value] of provenanceHeaders()) reply.header(name, value);
        const state = market.historyState(symbol);
        if (state.filling) reply.header('meridian-backfilling', 'true');
        const history = { backfilling: state.filling, availableFrom: new Date(state.from).toISOString() };
        return { symbol, interval, data, nextCursor, history };
      },
    );
  };
}
