import { Type } from 'typebox';
import {
  DERIVATIVES_WINDOWS,
  FLOW_RULE_DIRECTIONS,
  LEVEL_OPS,
  LIQUIDATION_SIDES,
  PRICE_OPS,
  PROBABILITY_HORIZONS,
  PROBABILITY_KINDS,
  RULE_WINDOWS,
} from '../../modules/alerts/index.ts';

/** The condition of each alert rule type, and `oneOf`, the enum helper every alerts schema uses. */

export const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

const Window = oneOf(RULE_WINDOWS);

export const PriceCondition = Type.Object(
  {
    op: oneOf(PRICE_OPS),
    value: Type.Number({
      description: 'A price in quote currency; for change_pct a percent (negative = a fall of more than it)',
    }),
    window: Type.Optional(oneOf(RULE_WINDOWS, 'change_pct only: the window the change is measured over')),
  },
  { additionalProperties: false },
);

export const VolumeCondition = Type.Object(
  {
    op: Type.Literal('above'),
    value: Type.Number({ exclusiveMinimum: 0, description: 'Quote volume (USD) over the window' }),
    window: Window,
  },
  { additionalProperties: false },
);

export const FlowCondition = Type.Object(
  {
    direction: oneOf(FLOW_RULE_DIRECTIONS, 'in: into the exchange or address; out: out of it; any: either'),
    exchange: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'binance, okx, … (aliases)' }),
    ),
    address: Type.Optional(
      Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'A 0x address (either party of a flow)' }),
    ),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "Id of one of the account's private labels (POST /api/labels): the rule watches its address",
      }),
    ),
    asset: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        pattern: '^\\s*[A-Za-z0-9.]+\\s*$',
        description: 'ETH, USDT, … (absent: any)',
      }),
    ),
    minUsd: Type.Number({
      minimum: 0,
      description: 'USD: a single transfer, or the windowed sum, of at least this',
    }),
    window: Type.Optional(
      oneOf(RULE_WINDOWS, 'Absent: each single transfer; present: the sum over the window'),
    ),
  },
  { additionalProperties: false },
);

export const FundingCondition = Type.Object(
  {
    op: oneOf(LEVEL_OPS, 'above: the rate is above value; below: under it'),
    value: Type.Number({
      description:
        'Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs',
    }),
  },
  { additionalProperties: false },
);

export const OpenInterestCondition = Type.Object(
  {
    op: oneOf(LEVEL_OPS, 'above: the change is above value; below: under it'),
    value: Type.Number({
      description: 'Percent change of open interest (USD) over the window; negative = a fall',
    }),
    window: oneOf(DERIVATIVES_WINDOWS, 'The change is measured against the value this long ago'),
  },
  { additionalProperties: false },
);

export const LiquidationsCondition = Type.Object(
  {
    op: Type.Literal('above'),
    value: Type.Number({ exclusiveMinimum: 0, description: 'USD liquidated over the window' }),
    side: oneOf(LIQUIDATION_SIDES, 'long: longs closed (a fall); short: shorts closed (a rise); any: both'),
    window: oneOf(DERIVATIVES_WINDOWS),
  },
  { additionalProperties: false },
);

export const ProbabilityCondition = Type.Object(
  {
    horizon: oneOf(PROBABILITY_HORIZONS, 'The forecast horizon whose datapoints are read'),
    level: Type.Number({ exclusiveMinimum: 0, description: 'The price level (quote currency)' }),
    kind: oneOf(
      PROBABILITY_KINDS,
      'end_above: the price ends above level at the horizon; touch: it reaches level before the horizon',
    ),
    op: oneOf(LEVEL_OPS, 'above: the probability is above value; below: under it'),
    value: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'The probability threshold, 0–1, compared with each newly published datapoint of the symbol at the horizon (as GET /api/predictions/probability computes it)',
    }),
  },
  { additionalProperties: false },
);

/** Every condition shape, for the places that hold any rule's condition. */
export const AnyCondition = Type.Union([
  ProbabilityCondition,
  PriceCondition,
  VolumeCondition,
  FlowCondition,
  FundingCondition,
  OpenInterestCondition,
  LiquidationsCondition,
]);
