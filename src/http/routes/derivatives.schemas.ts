import { Type } from 'typebox';
import { timeSeriesPageFields } from './time-page.schemas.ts';

/** The derivatives API's schemas: the per-symbol view (also pushed on `/market`), history pages, queries. */

const NullableNum = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Time = (description: string) => Type.String({ format: 'date-time', description });
const NullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });
const LiquidationWindow = (span: string) =>
  Type.Object(
    {
      longUsd: Type.Number({ description: `USD of long positions liquidated in the last ${span}` }),
      shortUsd: Type.Number({ description: `USD of short positions liquidated in the last ${span}` }),
    },
    { description: `Liquidations over the last ${span}, from the venues that stream them` },
  );

export const DerivativesItem = Type.Object(
  {
    symbol: Type.String({ description: 'Canonical symbol (BASEQUOTE)' }),
    funding: Type.Union(
      [
        Type.Object({
          rate: Type.Number({
            description:
              'Funding rate accruing now, settled at nextFundingTime: a fraction per funding period (0.0001 = 0.01 %), weighted over included venues',
          }),
          annualizedPct: Type.Number({
            description: 'rate × periods per year × 100 (simple, not compounded)',
          }),
          predictedRate: NullableNum(
            'The venues\u2019 predicted rate for the period after next (weighted over the venues that publish one); null when none does',
          ),
          nextFundingTime: NullableTime('The next settlement (earliest over included venues)'),
          intervalHours: Type.Number({ description: 'Hours between settlements' }),
        }),
        Type.Null(),
      ],
      { description: 'null when no included venue publishes funding for the symbol' },
    ),
    openInterest: Type.Union(
      [
        Type.Object({
          contracts: NullableNum(
            'Open contracts summed over included venues; null when no venue reports them',
          ),
          usd: NullableNum('Open interest in USD summed over included venues; null when no venue reports it'),
          change24hPct: NullableNum(
            'Percent change of the USD figure against 24 h ago; null without that history',
          ),
        }),
        Type.Null(),
      ],
      { description: 'null when no included venue publishes open interest' },
    ),
    basis: Type.Union(
      [
        Type.Object({
          bps: Type.Number({
            description: 'Perpetual mark over index price, bps (positive: perp above spot)',
          }),
          annualizedPct: Type.Number({
            description:
              'The premium as if paid every funding period for a year: bps / 10000 × periods per year × 100',
          }),
          markPrice: Type.Number({
            description: 'Weighted mark price of the venues reporting mark and index',
          }),
          indexPrice: Type.Number({ description: 'Weighted index (spot) price of the same venues' }),
        }),
        Type.Null(),
      ],
      { description: 'null when no included venue publishes both mark and index prices' },
    ),
    liquidations: Type.Union(
      [Type.Object({ h1: LiquidationWindow('hour'), h24: LiquidationWindow('24 hours') }), Type.Null()],
      { description: 'null when no venue of the source streams liquidations' },
    ),
    venues: Type.Array(
      Type.Object({
        venue: Type.String({ description: 'ccxt id of the venue' }),
        weight: Type.Number({
          description: 'Share in the merged figures (by open interest in USD, else equal); 0 when excluded',
        }),
        stale: Type.Boolean({ description: 'No reading for MERIDIAN_DERIVATIVES_STALE_MS: excluded' }),
        outlier: Type.Boolean({
          description:
            'Mark price further than MERIDIAN_MARKET_OUTLIER_BPS from the median of 3+ fresh venues: excluded',
        }),
        fundingRate: NullableNum('This venue\u2019s current funding rate; null when it publishes none'),
        predictedFundingRate: NullableNum(
          'This venue\u2019s predicted next rate; null when it publishes none',
        ),
        nextFundingTime: NullableTime('This venue\u2019s next settlement'),
        openInterestContracts: NullableNum('This venue\u2019s open contracts'),
        openInterestUsd: NullableNum('This venue\u2019s open interest, USD'),
        markPrice: NullableNum('This venue\u2019s mark price'),
        indexPrice: NullableNum('This venue\u2019s index price'),
        basisBps: NullableNum('This venue\u2019s mark over index, bps; null without both'),
        liquidations: Type.Boolean({ description: 'Whether this venue\u2019s liquidations are counted' }),
        updatedAt: Time('Time of this venue\u2019s reading (venue time)'),
      }),
      { description: 'Per-venue breakdown, in configured order' },
    ),
    stale: Type.Boolean({ description: 'true when no venue is fresh: the figures are the last known' }),
    updatedAt: NullableTime('Newest reading merged (venue time)'),
  },
  { $id: 'Derivatives' },
);

const Provenance = {
  source: Type.String({
    description: 'What the data comes from: simulated, replay or ccxt:<venues> (also Meridian-Source)',
  }),
  simulated: Type.Boolean({
    description: 'true when the figures are made up by the simulated market, not read from a venue',
  }),
  asOf: NullableTime('Newest reading of any symbol (also Meridian-As-Of)'),
  stale: Type.Boolean({
    description: 'true when that is older than MERIDIAN_DERIVATIVES_STALE_MS (also Meridian-Stale)',
  }),
};

export const DerivativesQuery = Type.Object(
  {
    symbols: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Comma-separated symbols in any accepted spelling; default: every supported symbol',
      }),
    ),
    strict: Type.Optional(
      Type.Boolean({ description: 'Answer 400 for an unsupported symbol instead of normalizing it' }),
    ),
  },
  { additionalProperties: false },
);

export const DerivativesResponse = Type.Object({
  data: Type.Array(DerivativesItem, {
    description: 'One item per selected symbol that has perpetual data yet (others are left out)',
  }),
  ...Provenance,
});

export const DerivativesHistoryQuery = Type.Object(
  {
    symbol: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'Required unless `cursor` is given' }),
    ),
    metric: Type.Optional(
      Type.Union(
        [
          Type.Literal('funding'),
          Type.Literal('open_interest'),
          Type.Literal('basis'),
          Type.Literal('liquidations'),
        ],
        { description: 'Which series; required unless `cursor` is given' },
      ),
    ),
    ...timeSeriesPageFields('Points'),
  },
  { additionalProperties: false },
);

const Opt = (description: string) => Type.Optional(Type.Number({ description }));

export const DerivativesHistoryResponse = Type.Object({
  symbol: Type.String(),
  metric: Type.String(),
  interval: Type.String(),
  data: Type.Array(
    Type.Object(
      {
        timestamp: Time('Start of the interval (UTC)'),
        time: Type.Integer({ description: 'Start of the interval, ms since the epoch' }),
        at: Type.Integer({
          description:
            'Time of the point shown (the newest in the interval), ms since the epoch; for funding the settlement time as the venue published it',
        }),
        rate: Opt('funding: the settled rate, fraction per period'),
        annualizedPct: Opt('funding: the settled rate × 3 periods a day × 365 × 100'),
        openInterestUsd: Opt('open_interest: USD, summed over venues (absent when unknown)'),
        openInterestContracts: Opt('open_interest: contracts (absent when unknown)'),
        bps: Opt('basis: mark over index, bps'),
        longUsd: Opt('liquidations: USD of long positions liquidated in the interval'),
        shortUsd: Opt('liquidations: USD of short positions liquidated in the interval'),
      },
      { additionalProperties: false },
    ),
    { description: 'Intervals holding data, oldest first; an interval without data is left out' },
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null at the end',
  }),
  history: Type.Object(
    {
      backfilling: Type.Boolean({
        description:
          'true while history is still being backfilled after a start (also `Meridian-Backfilling: true`)',
      }),
      availableFrom: Time(
        'Where backfilled history starts (MERIDIAN_DERIVATIVES_HISTORY_DAYS back, 00:00 UTC)',
      ),
    },
    { description: 'How complete the history behind this page is' },
  ),
  ...Provenance,
});
