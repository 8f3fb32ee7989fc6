import { Type } from 'typebox';
import { FACTORS, PUBLIC_QUANTILES, quantileKey } from '../../modules/predictions/index.ts';
import { GRANULARITIES, HORIZONS } from '../../modules/identifiers/index.ts';

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

export const OutlookQuerySchema = Type.Object({
  symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Absent: market-wide' })),
  strict: Type.Optional(
    Type.Boolean({ description: 'Answer 400 for an unsupported symbol instead of normalizing it' }),
  ),
});

const Bias = Type.Unsafe<string>({ type: 'string', enum: ['bullish', 'bearish', 'neutral'] });

/** Outages of the model refresh, shown by the outlook and the performance report. */
const GapsSchema = Type.Array(
  Type.Object({
    from: Type.String({ format: 'date-time', description: 'The last refresh before the outage.' }),
    to: Type.String({ format: 'date-time', description: 'The first refresh after it.' }),
    missedPoints: Type.Integer({ description: 'Refresh points with no datapoint in between.' }),
  }),
  { description: 'Outages of the model refresh in the last 30 days: the record has no datapoints there.' },
);

export const OutlookSchema = Type.Object({
  symbol: Type.Union([Type.String(), Type.Null()]),
  bias: Bias,
  score: Type.Number({ minimum: -1, maximum: 1 }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  horizons: Type.Record(
    Type.String(),
    Type.Object({
      bias: Bias,
      score: Type.Number(),
      expectedMovePct: Type.Number(),
      confidence: Type.Number(),
    }),
  ),
  drivers: Type.Array(
    Type.Object({
      factor: Type.String(),
      direction: Bias,
      weight: Type.Number({ minimum: 0, maximum: 1 }),
      reason: Type.String(),
    }),
  ),
  modelVersion: Type.String(),
  generatedAt: Type.String({ format: 'date-time' }),
  gaps: GapsSchema,
});

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
  gaps: GapsSchema,
});
