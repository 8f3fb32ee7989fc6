import { Type } from 'typebox';

/** The TypeBox schemas of the outlook endpoint (one symbol, market-wide, or a batch). */

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

/** An outage of the model refresh (also in the performance report). */
export const OutageSchema = Type.Object({
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
