import { Type } from 'typebox';
import { OutageSchema } from './predictions-outlook.schemas.ts';

/** The TypeBox schema of the performance report (the live track record). */

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

const ReferenceRecordSchema = (name: string) =>
  Type.Object(
    {
      available: Type.Boolean({
        description:
          'The figures are shown: at least minSample scored datapoints carry this reference’s CRPS',
      }),
      count: Type.Integer({
        description: `Scored live datapoints that carry a ${name} forecast (made after its first fit): the pairs compared`,
      }),
      crpsSkill: Type.Optional(
        Type.Number({
          description: `1 − CRPS / CRPS of ${name} over those datapoints, both on the 19 published quantiles`,
        }),
      ),
      dieboldMariano: Type.Optional(
        Type.Object(
          { statistic: NullableNum, pValue: NullableNum },
          {
            description: `Diebold–Mariano on CRPS − CRPS of ${name} (negative: the forecast's is smaller), HAC variance with lag ≥ the horizon's overlap − 1`,
          },
        ),
      ),
      reason: Type.Optional(
        Type.String({ description: 'Why the figures are absent (no fit yet, or too few scored datapoints)' }),
      ),
    },
    { description: `The forecasts against ${name}, fitted live on the same bars` },
  );

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
      references: Type.Object(
        { garch: ReferenceRecordSchema('GARCH(1,1)'), har_rv: ReferenceRecordSchema('HAR-RV') },
        {
          description:
            'The fitted volatility references, scored on the same outcomes; shown per reference once enough datapoints carry it',
        },
      ),
      from: Type.String({ format: 'date-time' }),
      to: Type.String({ format: 'date-time' }),
    }),
  ),
  randomWalk: Type.String(),
  reference: Type.String(),
  references: Type.Object(
    { garch: Type.String(), har_rv: Type.String() },
    { description: 'How each fitted reference is made' },
  ),
  modelVersion: Type.String(),
  generatedAt: Type.String({ format: 'date-time' }),
  gaps: Type.Array(OutageSchema, {
    description: 'Outages of the model refresh in the last 30 days: the record has no datapoints there.',
  }),
});
