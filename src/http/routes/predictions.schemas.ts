import { Type } from 'typebox';
import { FACTORS, PUBLIC_QUANTILES, quantileKey } from '../../modules/predictions/index.ts';
import { GRANULARITIES, HORIZONS } from '../../modules/identifiers/index.ts';
import { timePattern } from './market.schemas.ts';

/** The TypeBox schemas of the predictions endpoints (and of the `/predictions` push messages). */

const num = (description: string) => Type.Number({ description });

const FactorsSchema = Type.Object(
  Object.fromEntries(FACTORS.map((f) => [f, Type.Number({ minimum: -1, maximum: 1 })])) as Record<
    (typeof FACTORS)[number],
    ReturnType<typeof Type.Number>
  >,
  { description: 'Signed share of the forecast return per factor; Σ|f| = 1, all 0 for a flat forecast' },
);

export const DatapointSchema = Type.Object(
  {
    symbol: Type.String(),
    horizon: Type.Unsafe<string>({ type: 'string', enum: [...HORIZONS] }),
    prediction: num('Median forecast price at generatedAt + horizon, quote currency'),
    baseline: num('Merged mid price at generatedAt'),
    expectedMovePct: num('100 × (prediction − baseline) / baseline'),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Calibrated probability that the price at generatedAt + horizon is on the predicted side',
    }),
    factors: FactorsSchema,
    generatedAt: Type.String({ format: 'date-time' }),
    quantiles: Type.Optional(
      Type.Object(Object.fromEntries(PUBLIC_QUANTILES.map((l) => [quantileKey(l), Type.Number()])), {
        description: 'include=quantiles: p05…p95 of the forecast price (adaptive conformal)',
      }),
    ),
    outcome: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object({
          realized: Type.Number(),
          hit: Type.Boolean(),
          scoredAt: Type.String({ format: 'date-time' }),
        }),
      ]),
    ),
    modelVersion: Type.Optional(Type.String()),
    backfilled: Type.Optional(
      Type.Boolean({
        description:
          'include=backfilled: true when the datapoint was made after the fact (walk-forward over stored candles, on a fresh install or after an outage), not live; such datapoints are left out of the track record',
      }),
    ),
  },
  { $id: 'PredictionDatapoint' },
);

export const PredictionsPageSchema = Type.Object({ data: Type.Array(DatapointSchema) });

/** The symbol and horizon every per-symbol predictions query names. */
export const symbolHorizonFields = {
  symbol: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'Trading pair; normalized to the supported set',
  }),
  horizon: Type.Optional(
    Type.String({ maxLength: 20, description: `${HORIZONS.join(', ')}; normalized; default 1h` }),
  ),
};

export const PredictionsQuerySchema = Type.Object({
  ...symbolHorizonFields,
  granularity: Type.Optional(
    Type.String({
      maxLength: 20,
      description: `Spacing ${GRANULARITIES.join(', ')}; normalized; default 15m`,
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Default 96; above 96 returns 96' })),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Start of a span of the stored record (ISO 8601 or epoch ms, inclusive); with from/to the page is the newest `limit` buckets of that span, from storage, beyond the 96 most recent',
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'End of the span (inclusive; default: the newest). To page back, ask again with `to` just before the first datapoint of the page',
    }),
  ),
  include: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Comma list of quantiles, outcome, modelVersion, backfilled',
    }),
  ),
  strict: Type.Optional(
    Type.Boolean({
      description:
        'Answer 400 for an unsupported symbol (or a horizon or granularity that is no duration) instead of normalizing it',
    }),
  ),
});

/** The most ledger entries one page holds; a larger `limit` is clamped. */
export const MAX_LEDGER_LIMIT = 1000;

export const LedgerQuerySchema = Type.Object(
  {
    symbol: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description:
          'Only this symbol’s entries (normalized). A filtered page cannot be verified as a chain: each entry’s hash can, its link to the previous entry cannot',
      }),
    ),
    from: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: timePattern,
        description: 'Entries recorded at or after this time (ISO 8601 or ms since the epoch; inclusive)',
      }),
    ),
    to: Type.Optional(
      Type.String({
        maxLength: 40,
        pattern: timePattern,
        description: 'Entries recorded before this time (exclusive); default: up to the head',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Entries per page, up to ${MAX_LEDGER_LIMIT} (larger → ${MAX_LEDGER_LIMIT}); default 500`,
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'nextCursor of the previous page' })),
    strict: Type.Optional(
      Type.Boolean({ description: 'Answer 400 for an unsupported symbol instead of normalizing it' }),
    ),
  },
  { additionalProperties: false },
);

const HexHash = (description: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description });

export const LedgerEntrySchema = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1, description: 'Position in the chain, from 1, without gaps' }),
    time: Type.String({ format: 'date-time', description: 'When the entry was appended (recordedAtMs)' }),
    recordedAtMs: Type.Integer({ description: 'When the entry was appended, ms since the epoch (hashed)' }),
    symbol: Type.String(),
    horizon: Type.Unsafe<string>({ type: 'string', enum: [...HORIZONS] }),
    generatedAt: Type.String({ format: 'date-time' }),
    backfilled: Type.Boolean({
      description: 'Made after the fact by the walk-forward backfill, not live (also in the payload)',
    }),
    payload: Type.String({
      description:
        'The datapoint as published, in canonical JSON (RFC 8785: sorted keys, no whitespace): the exact bytes hashed',
    }),
    prevHash: HexHash('The previous entry’s hash; 64 zeros for entry 1'),
    hash: HexHash(
      'SHA-256 (lower-case hex) of the UTF-8 text `<prevHash>\\n<sequence>\\n<recordedAtMs>\\n<payload>`',
    ),
    outcome: Type.Union(
      [
        Type.Null(),
        Type.Object({
          realized: Type.Number(),
          hit: Type.Boolean(),
          covered80: Type.Boolean(),
          covered90: Type.Boolean(),
          scoredAt: Type.String({ format: 'date-time' }),
        }),
      ],
      {
        description:
          'The scored outcome, once the horizon has passed (not hashed: it comes after the entry); null until then or once the datapoint is no longer stored',
      },
    ),
  },
  { $id: 'LedgerEntry' },
);

export const LedgerPageSchema = Type.Object({
  data: Type.Array(LedgerEntrySchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null at the end',
  }),
  head: Type.Object(
    {
      sequence: Type.Integer({ minimum: 0 }),
      hash: HexHash('The newest entry’s hash (64 zeros while empty)'),
    },
    { description: 'The ledger’s newest entry now (also the `Meridian-Ledger-Head` header)' },
  ),
});
