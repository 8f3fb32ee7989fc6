import { Type } from 'typebox';
import {
  DERIVATIVES_WINDOWS,
  LIQUIDATION_SIDES,
  PROBABILITY_HORIZONS,
  PROBABILITY_KINDS,
  RULE_TYPES,
  RULE_WINDOWS,
  TRIGGER_MODES,
} from '../../modules/alerts/index.ts';
import { AnyCondition, oneOf } from './alerts-conditions.schemas.ts';

/**
 * The bodies alerts append to the account event log — delivered byte for byte by webhooks and on the
 * `/events` stream. Declared here so they are part of the OpenAPI document (components).
 */
const EventRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: oneOf(RULE_TYPES),
  symbol: Type.Optional(Type.String()),
  condition: AnyCondition,
  trigger: Type.Object({ mode: oneOf(TRIGGER_MODES), cooldownSec: Type.Integer() }),
  channels: Type.Object({
    webhookIds: Type.Array(Type.String()),
    channelIds: Type.Optional(Type.Array(Type.String())),
    events: Type.Boolean(),
  }),
  template: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const EventTrigger = Type.Object({
  id: Type.String({ description: 'trg_…' }),
  firedAt: Type.String({ format: 'date-time', description: 'When the evaluator fired' }),
  eventAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'Time of the market or chain event' }),
  ),
  key: Type.Optional(Type.String({ description: 'The event key: unique per rule (exactly once)' })),
  value: Type.Optional(
    Type.Number({ description: 'The observed value: price, change %, quote volume, USD, probability' }),
  ),
  test: Type.Optional(Type.Boolean()),
  replacesTrigger: Type.Optional(Type.String()),
});
const envelope = (type: string, data: ReturnType<typeof Type.Object>, id: string, description: string) =>
  Type.Object(
    {
      id: Type.String({ description: 'evt_… — also the webhook-id header' }),
      type: Type.Literal(type),
      version: Type.Literal(1),
      timestamp: Type.String({ format: 'date-time' }),
      test: Type.Boolean({ description: 'true for POST /api/alerts/:id/test' }),
      data,
    },
    { $id: id, description },
  );
export const AlertTriggeredEvent = envelope(
  'alert.triggered',
  Type.Object({
    rule: EventRule,
    trigger: EventTrigger,
    market: Type.Optional(
      Type.Object({
        symbol: Type.String(),
        price: Type.Number({ description: 'Merged mid' }),
        window: Type.Optional(oneOf(RULE_WINDOWS)),
        changePct: Type.Optional(Type.Number()),
        quoteVolume: Type.Optional(Type.Number()),
        at: Type.String({ format: 'date-time' }),
      }),
    ),
    derivatives: Type.Optional(
      Type.Object({
        symbol: Type.String(),
        metric: oneOf(['funding', 'open_interest', 'liquidations'] as const),
        fundingAnnualizedPct: Type.Optional(Type.Number({ description: 'funding: percent a year' })),
        fundingRate: Type.Optional(Type.Number({ description: 'funding: the rate per funding period' })),
        window: Type.Optional(oneOf(DERIVATIVES_WINDOWS)),
        openInterestUsd: Type.Optional(Type.Number()),
        changePct: Type.Optional(Type.Number({ description: 'open_interest: change over the window' })),
        side: Type.Optional(oneOf(LIQUIDATION_SIDES)),
        liquidatedUsd: Type.Optional(Type.Number({ description: 'liquidations: USD over the window' })),
        source: Type.String({ description: 'The derivatives source (simulated, replay:…, ccxt:…)' }),
        simulated: Type.Boolean({ description: 'true: made-up data (the simulated market)' }),
        at: Type.String({ format: 'date-time', description: 'The derivatives refresh that fired it' }),
      }),
    ),
    prediction: Type.Optional(
      Type.Object({
        symbol: Type.String(),
        horizon: oneOf(PROBABILITY_HORIZONS),
        level: Type.Number({ description: 'The price level' }),
        kind: oneOf(PROBABILITY_KINDS),
        probability: Type.Number({ description: 'The probability the rule compared (0–1)' }),
        generatedAt: Type.String({
          format: 'date-time',
          description: 'The published forecast datapoint that fired it',
        }),
        baseline: Type.Number({ description: "The datapoint's baseline price" }),
        prediction: Type.Number({ description: "The datapoint's predicted price" }),
      }),
    ),
    note: Type.Optional(Type.String()),
  }),
  'AlertTriggeredEvent',
  'A price, volume, funding, open_interest, liquidations or probability rule fired (event type alert.triggered)',
);
export const AlertCappedEvent = envelope(
  'alert.capped',
  Type.Object({
    rule: EventRule,
    cappedUntil: Type.String({
      format: 'date-time',
      description: 'Until when its messages are recorded as capped (listed in its deliveries), not sent',
    }),
    note: Type.String(),
  }),
  'AlertCappedEvent',
  'A rule reached its hourly message cap: one event per episode (event type alert.capped)',
);
export const OnchainFlowEvent = envelope(
  'onchain.flow',
  Type.Object({
    status: oneOf(
      ['confirmed', 'removed'] as const,
      'removed: a reorg took away the flow of an earlier event',
    ),
    replaces: Type.Optional(
      Type.String({ description: 'removed only: the evt_… id of the retracted event' }),
    ),
    rule: EventRule,
    trigger: EventTrigger,
    flow: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: 'The flow as GET /api/onchain/flows shows it' },
      ),
    ),
    window: Type.Optional(
      Type.Object({ window: oneOf(RULE_WINDOWS), sumUsd: Type.Number(), flows: Type.Integer() }),
    ),
    removedFlowId: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    note: Type.Optional(Type.String()),
  }),
  'OnchainFlowEvent',
  'An address_flow rule fired (event type onchain.flow), or its follow-up after a reorg',
);
