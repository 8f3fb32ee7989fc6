import { Type } from 'typebox';
import { symbolHorizonFields } from './predictions.schemas.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../../modules/predictions/index.ts';
import { HORIZONS } from '../../modules/identifiers/index.ts';

/** The TypeBox schemas of the level-probability endpoint. */

const num = (description: string) => Type.Number({ description });

/** The most price levels one probability request may ask about. */
export const MAX_LEVELS = 20;

export const ProbabilityQuerySchema = Type.Object(
  {
    ...symbolHorizonFields,
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
  },
  { additionalProperties: false },
);

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
