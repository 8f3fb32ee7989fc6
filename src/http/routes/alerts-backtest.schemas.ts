import { Type } from 'typebox';
import {
  DEFAULT_BACKTEST_DAYS,
  MAX_BACKTEST_DAYS,
  MAX_LISTED_FIRINGS,
  RULE_TYPES,
  TRIGGER_MODES,
} from '../../modules/alerts/index.ts';
import { FlowCondition, oneOf, PriceCondition, VolumeCondition } from './alerts-conditions.schemas.ts';

/** A backtest's query and its answer: when an unsaved rule would have fired over a past window. */

export const BacktestQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_BACKTEST_DAYS,
      description: `Days back from \`to\` (default ${DEFAULT_BACKTEST_DAYS}); not with \`from\``,
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Start of the window' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End of the window (default now)' })),
});

export const Backtest = Type.Object(
  {
    rule: Type.Object(
      {
        type: oneOf(RULE_TYPES),
        symbol: Type.Optional(Type.String()),
        condition: Type.Union([PriceCondition, VolumeCondition, FlowCondition]),
        trigger: Type.Object({ mode: oneOf(TRIGGER_MODES), cooldownSec: Type.Integer() }),
      },
      { description: 'The rule as evaluated (normalized), not saved' },
    ),
    window: Type.Object({
      from: Type.String({ format: 'date-time' }),
      to: Type.String({ format: 'date-time' }),
    }),
    firings: Type.Array(
      Type.Object({
        at: Type.String({ format: 'date-time', description: 'When it would have fired' }),
        value: Type.Number({ description: 'The value its condition compared (price, %, USD)' }),
        flowId: Type.Optional(Type.String({ description: 'Flow rules: the flow behind the firing' })),
      }),
      { description: `Oldest first; the first ${MAX_LISTED_FIRINGS} (totals count all)` },
    ),
    firingsListed: Type.Integer(),
    totals: Type.Object({
      firings: Type.Integer(),
      first: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      last: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      perDay: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), firings: Type.Integer() }), {
        description: 'Per UTC day of the window, days without a firing included',
      }),
    }),
    data: Type.Object(
      {
        source: Type.String({ description: 'simulated, replay or ccxt:<venues> (flows: the chain source)' }),
        simulated: Type.Boolean({ description: 'true when the data replayed was made up by a simulator' }),
        candles: Type.Optional(
          Type.Integer({ description: 'Price and volume rules: stored 1m candles replayed' }),
        ),
        missingMinutes: Type.Optional(
          Type.Integer({ description: 'Minutes of the window without a candle' }),
        ),
        backfilling: Type.Optional(
          Type.Boolean({ description: 'Storage is still being filled: the window may gain candles' }),
        ),
        availableFrom: Type.Optional(
          Type.String({ format: 'date-time', description: 'Where stored history of the symbol starts' }),
        ),
        flows: Type.Optional(Type.Integer({ description: 'Flow rules: stored flows read' })),
        complete: Type.Optional(
          Type.Boolean({ description: 'Flow rules: false when the read stopped before the window start' }),
        ),
      },
      { description: 'What was replayed: say what the firings rest on' },
    ),
    normalized: Type.Array(
      Type.Object({ field: Type.String(), requested: Type.String(), used: Type.String() }),
    ),
  },
  { $id: 'AlertBacktest' },
);
