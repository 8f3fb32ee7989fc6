import { Type } from 'typebox';
import { timeSeriesPageFields } from './time-page.schemas.ts';

/** The market API's schemas: market-data pages and items, history pages and candles, their queries. */

const Num = Type.Number();
const NullableNum = Type.Union([Type.Number(), Type.Null()]);

export const MarketDataItem = Type.Object(
  {
    symbol: Type.String({ description: 'Canonical symbol used (BASEQUOTE)' }),
    price: Type.Union([Num, Type.Null()], { description: 'Merged mid across included venues' }),
    bestBid: NullableNum,
    bestAsk: NullableNum,
    spreadBps: NullableNum,
    change24hPct: NullableNum,
    high24h: NullableNum,
    low24h: NullableNum,
    volume24h: Type.Number({ description: 'Base volume, all venues, 24 h' }),
    quoteVolume24h: Type.Number({ description: 'Quote (USD) volume, all venues, 24 h' }),
    vwap24h: NullableNum,
    liquidity: Type.Object({
      depth: Type.Array(
        Type.Object({
          bandPct: Type.Number({ description: '0.5, 1 or 2: within ± this percent of the merged mid' }),
          bidUsd: Num,
          askUsd: Num,
        }),
      ),
      slippage: Type.Object({
        notional: Type.Number({
          description: 'USD notional of the market order walked through the consolidated book',
        }),
        buyBps: Type.Union([Num, Type.Null()], { description: 'null when the book is too thin' }),
        sellBps: NullableNum,
      }),
      bookImbalance: Type.Union([Num, Type.Null()], {
        description: '(bid − ask depth) / (bid + ask depth) within ±1 %, in [-1, 1]',
      }),
    }),
    tradeImbalance5m: Type.Union([Num, Type.Null()], {
      description: '(buy − sell aggressor volume) / total, last 5 minutes',
    }),
    fundingRate: Type.Union([Num, Type.Null()], { description: 'Perpetual funding rate per 8 h, fraction' }),
    basisBps: Type.Union([Num, Type.Null()], { description: 'Perpetual mark vs merged mid, bps' }),
    venues: Type.Array(
      Type.Object({
        venue: Type.String(),
        price: NullableNum,
        spreadBps: NullableNum,
        volume24h: Num,
        quoteVolume24h: Num,
        weight: Type.Number({ description: 'Share of the merged price; 0 when excluded' }),
        stale: Type.Boolean(),
        outlier: Type.Boolean(),
        updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      }),
    ),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'MarketData' },
);

/** Symbols per market-data page: the default, and the most one page holds (a larger `limit` is clamped). */
export const DEFAULT_SYMBOLS_PER_PAGE = 100;
export const MAX_SYMBOLS_PER_PAGE = 500;

export const MarketDataQuery = Type.Object(
  {
    symbols: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'Comma-separated symbols in any accepted spelling, answered in the order given; default: every supported symbol, in configured order',
      }),
    ),
    quote: Type.Optional(
      Type.String({
        maxLength: 20,
        description:
          'Only symbols quoted in this currency: USDT (USD, USDC, BUSD, FDUSD, TUSD mean USDT), BTC, ETH, EUR or BNB, any case; anything else → 400',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Symbols per page; default ${DEFAULT_SYMBOLS_PER_PAGE}, above ${MAX_SYMBOLS_PER_PAGE} → ${MAX_SYMBOLS_PER_PAGE} (reported in Meridian-Normalized)`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'nextCursor of the previous page; send the same symbols, quote and notional with it',
      }),
    ),
    notional: Type.Optional(
      Type.Number({
        minimum: 1,
        maximum: 1e10,
        description: 'USD notional of the slippage figures; default 100000',
      }),
    ),
    strict: Type.Optional(
      Type.Boolean({ description: 'Answer 400 for an unsupported symbol instead of normalizing it' }),
    ),
  },
  { additionalProperties: false },
);

export const MarketDataResponse = Type.Object({
  data: Type.Array(MarketDataItem),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description:
      'Pass as `cursor` (with the same symbols, quote and notional) for the next page; null on the last',
  }),
});

const CandleSchema = Type.Object(
  {
    timestamp: Type.String({ format: 'date-time', description: 'Interval open time (UTC)' }),
    openTime: Type.Integer({ description: 'Interval open time, ms since the epoch' }),
    open: Num,
    high: Num,
    low: Num,
    close: Num,
    volume: Type.Number({ description: 'Base volume' }),
    quoteVolume: Type.Number({ description: 'Quote (USD) volume' }),
    closed: Type.Boolean({ description: 'false only for the bar still in progress' }),
  },
  { $id: 'Candle' },
);

export { timePattern } from './time-page.schemas.ts';

export const HistoryQuery = Type.Object(
  {
    symbol: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'Required unless `cursor` is given' }),
    ),
    ...timeSeriesPageFields('Bars'),
  },
  { additionalProperties: false },
);

export const HistoryResponse = Type.Object({
  symbol: Type.String(),
  interval: Type.String(),
  data: Type.Array(CandleSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null at the end',
  }),
  history: Type.Object(
    {
      backfilling: Type.Boolean({
        description:
          "true while this symbol's history is still being filled after a start: bars may be missing from the page (also the `Meridian-Backfilling: true` header)",
      }),
      availableFrom: Type.String({
        format: 'date-time',
        description: 'Where offered history starts (MERIDIAN_MARKET_HISTORY_DAYS back, at 00:00 UTC)',
      }),
    },
    { description: 'How complete the history behind this page is' },
  ),
});
