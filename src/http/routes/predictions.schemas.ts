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

export const PredictionsQuerySchema = Type.Object({
  symbol: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'Trading pair; normalized to the supported set',
  }),
  horizon: Type.Optional(
    Type.String({ maxLength: 20, description: `${HORIZONS.join(', ')}; normalized; default 1h` }),
  ),
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

/** The most symbols one batched outlook request (`symbols=`) may name. */
export const MAX_OUTLOOK_SYMBOLS = 25;

export const OutlookQuerySchema = Type.Object({
  symbol: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'One symbol (normalized to the supported set). Absent, and no `symbols`: market-wide',
    }),
  ),
  symbols: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description: `Batch: comma-separated symbols (at most ${MAX_OUTLOOK_SYMBOLS}, any accepted spelling), answered as \`{ data: [...] }\` in the order given, duplicates once; an unsupported one gets its own \`error\` entry (with \`strict\`: the whole request is a 400). Not with \`symbol\``,
    }),
  ),
  strict: Type.Optional(
    Type.Boolean({ description: 'Answer 400 for an unsupported symbol instead of normalizing it' }),
  ),
});

const OutageSchema = Type.Object({
  from: Type.String({ format: 'date-time', description: 'The last refresh before the outage.' }),
  to: Type.String({ format: 'date-time', description: 'The first refresh after it.' }),
  missedPoints: Type.Integer({ description: 'Refresh points with no datapoint in between.' }),
});

const Bias = Type.Unsafe<string>({ type: 'string', enum: ['bullish', 'bearish', 'neutral'] });

export const OutlookSchema = Type.Object(
  {
    symbol: Type.Union([Type.String(), Type.Null()]),
    bias: Bias,
    score: Type.Number({ minimum: -1, maximum: 1 }),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    message: Type.String({
      description:
        'One sentence: the bias where the record earns a direction, else neutral with the 1h 80 % interval',
    }),
    horizons: Type.Record(
      Type.String(),
      Type.Object({
        bias: Type.Unsafe<string>({
          type: 'string',
          enum: ['bullish', 'bearish', 'neutral'],
          description:
            'bullish or bearish only where the direction passed its evidence test (directionEarned)',
        }),
        score: Type.Number(),
        expectedMovePct: Type.Number(),
        confidence: Type.Number(),
        directionEarned: Type.Boolean({
          description:
            "The forecast's direction passed its evidence test: its mean is non-zero only because a member's walk-forward record earned it, and the published side agrees (market-wide: for some symbol)",
        }),
        interval80Pct: Type.Object(
          { low: Type.Number(), high: Type.Number() },
          {
            description:
              'The 80 % interval (p10…p90) as % moves from the baseline (market-wide: mean over symbols)',
          },
        ),
        message: Type.String({ description: 'What this horizon says, in one sentence' }),
      }),
    ),
    drivers: Type.Array(
      Type.Object({
        factor: Type.String(),
        direction: Bias,
        weight: Type.Number({ minimum: 0, maximum: 1 }),
        reason: Type.String({
          description:
            "What the factor's inputs read now, with units (funding % per 8 h, realized volatility against its median, …), and whether the model has earned a direction from it",
        }),
      }),
    ),
    modelVersion: Type.String(),
    generatedAt: Type.String({ format: 'date-time' }),
    gaps: Type.Array(OutageSchema, {
      description: 'Outages of the model refresh in the last 30 days (as in the performance report)',
    }),
  },
  // No `$id`: the schema appears twice in one response (alone and in each batch entry), which Fastify's
  // serializer refuses for a named schema.
);

const OutlookEntrySchema = Type.Object(
  {
    requested: Type.String({ description: 'The entry as sent' }),
    symbol: Type.String({ description: 'The supported symbol it was normalized to' }),
    source: Type.String({
      description: 'What the forecasts are made from: simulated, replay or ccxt:<venues>',
    }),
    asOf: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        "The newest datapoint this outlook summarizes (the data's own clock); null before the first",
    }),
    stale: Type.Boolean({ description: 'asOf is older than 2.5 refresh periods now (or absent)' }),
    backfilling: Type.Boolean({ description: "The symbol's model is still warming up" }),
    outlook: OutlookSchema,
  },
  { $id: 'OutlookEntry' },
);

const OutlookEntryErrorSchema = Type.Object(
  {
    requested: Type.String({ description: 'The entry as sent' }),
    symbol: Type.Null(),
    error: Type.Object(
      {
        status: Type.Integer(),
        code: Type.String(),
        title: Type.String(),
        detail: Type.String(),
      },
      { description: 'Why this entry has no outlook (the problem it would get on its own, with strict)' },
    ),
  },
  { $id: 'OutlookEntryError' },
);

export const OutlookBatchSchema = Type.Object(
  { data: Type.Array(Type.Union([OutlookEntrySchema, OutlookEntryErrorSchema])) },
  { $id: 'OutlookBatch', description: 'symbols=…: one entry per distinct symbol, in the order given' },
);

const Bin = Type.Object({
  lower: Type.Union([Type.Number(), Type.Null()]),
  upper: Type.Union([Type.Number(), Type.Null()]),
  count: Type.Integer(),
  meanConfidence: Type.Union([Type.Number(), Type.Null()]),
  hitRate: Type.Union([Type.Number(), Type.Null()]),
});

const Num = Type.Number();
const NullableNum = Type.Union([Type.Number(), Type.Null()]);
const DieboldMarianoSchema = Type.Object({ statistic: NullableNum, pValue: NullableNum });

export const PerformanceSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      symbol: Type.String(),
      horizon: Type.String(),
      count: Type.Integer({
        description: 'Scored live datapoints in the record (backfilled ones are not counted)',
      }),
      minSample: Type.Integer({
        description:
          'Datapoints needed before figures are shown: 30 independent outcomes, i.e. 30 × the horizon ÷ the refresh period (outcomes of overlapping horizons are correlated)',
      }),
      sample: Type.Union([Type.Literal('sufficient'), Type.Literal('insufficient')], {
        description: 'insufficient: count < minSample, and the figures below are left out rather than shown',
      }),
      hitRate: Type.Optional(Num),
      hitRateSE: Type.Optional(
        Type.Union([Type.Number(), Type.Null()], {
          description:
            'HAC (Newey–West) standard error of the hit rate; overlapping horizons correlate outcomes',
        }),
      ),
      brier: Type.Optional(Num),
      brierDecomposition: Type.Optional(
        Type.Object(
          { reliability: Num, resolution: Num, uncertainty: Num },
          {
            description:
              'Murphy decomposition on the equal-mass bins: Brier ≈ reliability − resolution + uncertainty',
          },
        ),
      ),
      ece: Type.Optional(
        Type.Number({ description: 'Expected calibration error, ten equal-width bins of confidence' }),
      ),
      eceEqualMass: Type.Optional(
        Type.Number({ description: 'Expected calibration error, ten equal-mass bins (deciles)' }),
      ),
      calibration: Type.Optional(Type.Array(Bin)),
      calibrationEqualMass: Type.Optional(Type.Array(Bin)),
      confidence: Type.Optional(
        Type.Object(
          { sd: NullableNum, min: NullableNum, max: NullableNum },
          { description: 'Spread of confidence (sharpness)' },
        ),
      ),
      shareFlat: Type.Optional(
        Type.Number({ description: 'Share of datapoints with prediction = baseline' }),
      ),
      crpsSkillVsReference: Type.Optional(
        Type.Number({
          description: '1 − CRPS / CRPS of the calibrated zero-mean reference (19 published quantiles)',
        }),
      ),
      dieboldMarianoVsReference: Type.Optional(DieboldMarianoSchema),
      crpsSkillVsRandomWalk: Type.Optional(Num),
      coverage80: Type.Optional(Num),
      coverage90: Type.Optional(Num),
      coverage80BySigmaTercile: Type.Optional(
        Type.Array(NullableNum, {
          description: '80 % coverage in the low, middle and high tercile of the predictive σ',
        }),
      ),
      from: Type.String({ format: 'date-time' }),
      to: Type.String({ format: 'date-time' }),
    }),
  ),
  randomWalk: Type.String(),
  reference: Type.String(),
  modelVersion: Type.String(),
  generatedAt: Type.String({ format: 'date-time' }),
  gaps: Type.Array(OutageSchema, {
    description: 'Outages of the model refresh in the last 30 days: the record has no datapoints there.',
  }),
});

/** The most price levels one probability request may ask about. */
export const MAX_LEVELS = 20;

export const ProbabilityQuerySchema = Type.Object({
  symbol: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'Trading pair; normalized to the supported set',
  }),
  horizon: Type.Optional(
    Type.String({ maxLength: 20, description: `${HORIZONS.join(', ')}; normalized; default 1h` }),
  ),
  levels: Type.String({
    minLength: 1,
    maxLength: 600,
    description: `Comma list of prices (quote currency, each > 0), at most ${MAX_LEVELS}; answered in the order given`,
  }),
  strict: Type.Optional(
    Type.Boolean({
      description:
        'Answer 400 for an unsupported symbol (or a horizon that is no duration) instead of normalizing it',
    }),
  ),
});

export const ProbabilitySchema = Type.Object(
  {
    symbol: Type.String(),
    horizon: Type.Unsafe<string>({ type: 'string', enum: [...HORIZONS] }),
    datapoint: Type.Object(
      {
        generatedAt: Type.String({ format: 'date-time', description: 'When the forecast was made' }),
        horizon: Type.Unsafe<string>({ type: 'string', enum: [...HORIZONS] }),
        baseline: num('Merged mid price at generatedAt'),
        prediction: num('Median forecast price at generatedAt + horizon'),
        quantiles: Type.Object(
          Object.fromEntries(PUBLIC_QUANTILES.map((l) => [quantileKey(l), Type.Number()])),
          {
            description: 'p05…p95 of the forecast price: the distribution the probabilities are read from',
          },
        ),
        modelVersion: Type.String(),
        backfilled: Type.Boolean({
          description: 'The datapoint was made after the fact over stored candles (warm-up), not live',
        }),
        source: Type.String({
          description: 'What the forecasts are made from: simulated, replay or ccxt:<venues>',
        }),
        stale: Type.Boolean({ description: 'generatedAt is older than 2.5 refresh periods now' }),
      },
      { description: 'The newest datapoint of this symbol and horizon, which the probabilities come from' },
    ),
    levels: Type.Array(
      Type.Object({
        level: num('The price asked about'),
        endAbove: Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'Calibrated probability that the price at generatedAt + horizon is above the level',
        }),
        touch: Type.Number({
          minimum: 0,
          maximum: 1,
          description:
            'Probability that the price reaches the level before generatedAt + horizon (1 at the baseline); see touchMethod',
        }),
        touchMethod: Type.Union([Type.Literal('empirical'), Type.Literal('reflection')], {
          description:
            'empirical: learned walk-forward from how far past paths went; reflection: the reflection principle on the same distribution, a lower bound, until enough outcomes are held',
        }),
      }),
    ),
  },
  { $id: 'LevelProbabilities' },
);
