import { type Static, type TObject, Type } from 'typebox';
import { MAX_PAGE, RULE_STATES, RULE_TYPES, TRIGGER_MODES } from '../../modules/alerts/index.ts';
import {
  AnyCondition,
  FlowCondition,
  FundingCondition,
  LiquidationsCondition,
  OpenInterestCondition,
  oneOf,
  PriceCondition,
  ProbabilityCondition,
  VolumeCondition,
} from './alerts-conditions.schemas.ts';

/**
 * The alerts API's rule schemas: rule bodies, edits, the stored rule, pages. Conditions per rule type are in
 * alerts-conditions.schemas.ts, backtests in alerts-backtest.schemas.ts, event bodies in alerts-events.schemas.ts.
 */

const Trigger = Type.Object(
  {
    mode: Type.Optional(oneOf(TRIGGER_MODES, 'once (default): fire once, then triggered; every: each time')),
    cooldownSec: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_592_000,
        description: 'every: quiet time after a firing (default 300)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Channels = Type.Object(
  {
    webhookIds: Type.Optional(
      Type.Array(Type.String({ pattern: '^wh_[A-Za-z0-9]{1,64}$' }), {
        maxItems: 20,
        uniqueItems: true,
        description:
          'Endpoints to deliver to; empty: every endpoint of the account subscribed to the event type',
      }),
    ),
    channelIds: Type.Optional(
      Type.Array(Type.String({ pattern: '^ch_[A-Za-z0-9]{1,64}$' }), {
        maxItems: 20,
        uniqueItems: true,
        description: 'Alert channels (email, Telegram, Discord, Slack) that receive its messages',
      }),
    ),
    events: Type.Optional(
      Type.Boolean({ description: 'Carry the events on the /events stream (default true)' }),
    ),
  },
  { additionalProperties: false },
);

const Template = Type.Union([
  Type.String({
    maxLength: 1_000,
    description:
      'Message of its channel messages, with {{symbol}} {{price}} {{condition}} {{value}} {{exchange}} {{asset}} {{amount_usd}} {{time}} {{rule_name}} {{console_url}} {{probability}} {{level}} {{horizon}}; plain text, escaped per channel. Null or empty: the default of its type',
  }),
  Type.Null(),
]);

const common = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  trigger: Type.Optional(Trigger),
  expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  channels: Type.Optional(Channels),
  template: Type.Optional(Template),
};
const SymbolField = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Any accepted spelling: btc, BTC/USDT, …',
});

/**
 * A union of objects told apart by their `type`. Ajv (server option `discriminator`) validates only the
 * branch the value's `type` names, so a bad body gets the errors of what the client meant; `type` itself is
 * checked first, so a missing or unknown one gets one error naming it.
 */
function byType<T extends TObject[]>(types: readonly string[], branches: [...T], description: string) {
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: [...types] } },
    discriminator: { propertyName: 'type' },
    oneOf: branches,
    description,
  });
}

const PriceRule = Type.Object(
  { type: Type.Literal('price'), symbol: SymbolField, condition: PriceCondition, ...common },
  // Named: in OpenAPI a discriminator can select only referenced (named) schemas.
  { additionalProperties: false, $id: 'PriceAlertRuleInput' },
);
const VolumeRule = Type.Object(
  { type: Type.Literal('volume'), symbol: SymbolField, condition: VolumeCondition, ...common },
  { additionalProperties: false, $id: 'VolumeAlertRuleInput' },
);
const FlowRule = Type.Object(
  { type: Type.Literal('address_flow'), condition: FlowCondition, ...common },
  { additionalProperties: false, $id: 'AddressFlowAlertRuleInput' },
);

const FundingRule = Type.Object(
  { type: Type.Literal('funding'), symbol: SymbolField, condition: FundingCondition, ...common },
  { additionalProperties: false, $id: 'FundingAlertRuleInput' },
);
const OpenInterestRule = Type.Object(
  { type: Type.Literal('open_interest'), symbol: SymbolField, condition: OpenInterestCondition, ...common },
  { additionalProperties: false, $id: 'OpenInterestAlertRuleInput' },
);
const LiquidationsRule = Type.Object(
  { type: Type.Literal('liquidations'), symbol: SymbolField, condition: LiquidationsCondition, ...common },
  { additionalProperties: false, $id: 'LiquidationsAlertRuleInput' },
);

const ProbabilityRule = Type.Object(
  { type: Type.Literal('probability'), symbol: SymbolField, condition: ProbabilityCondition, ...common },
  { additionalProperties: false, $id: 'ProbabilityAlertRuleInput' },
);

export const CreateRule = byType(
  RULE_TYPES,
  [PriceRule, VolumeRule, FlowRule, FundingRule, OpenInterestRule, LiquidationsRule, ProbabilityRule],
  'An alert rule; the shape of `condition` depends on `type`',
);

/** An edited condition with the type of the rule it edits: checked against that type's shape. */
export const TypedCondition = byType(
  RULE_TYPES,
  [
    Type.Object({ type: Type.Literal('price'), condition: PriceCondition }),
    Type.Object({ type: Type.Literal('volume'), condition: VolumeCondition }),
    Type.Object({ type: Type.Literal('address_flow'), condition: FlowCondition }),
    Type.Object({ type: Type.Literal('funding'), condition: FundingCondition }),
    Type.Object({ type: Type.Literal('open_interest'), condition: OpenInterestCondition }),
    Type.Object({ type: Type.Literal('liquidations'), condition: LiquidationsCondition }),
    Type.Object({ type: Type.Literal('probability'), condition: ProbabilityCondition }),
  ],
  'A condition and the type of its rule',
);

/** An edit; its condition is checked against the edited rule's type by the route (TypedCondition). */
export const PatchRule = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    state: Type.Optional(oneOf(['active', 'paused'] as const, 'paused: not evaluated; active: resume')),
    symbol: Type.Optional(SymbolField),
    condition: Type.Optional(AnyCondition),
    trigger: Type.Optional(Trigger),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    channels: Type.Optional(Channels),
    template: Type.Optional(Template),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Rule = Type.Object(
  {
    id: Type.String({ description: 'alr_…' }),
    name: Type.String(),
    type: oneOf(RULE_TYPES),
    symbol: Type.Optional(
      Type.String({ description: 'Every rule type but address_flow: the canonical symbol used' }),
    ),
    condition: AnyCondition,
    trigger: Type.Object({ mode: oneOf(TRIGGER_MODES), cooldownSec: Type.Integer() }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    channels: Type.Object({
      webhookIds: Type.Array(Type.String()),
      channelIds: Type.Array(Type.String()),
      events: Type.Boolean(),
    }),
    template: Type.Union([Type.String(), Type.Null()], { description: 'Null: the default of its type' }),
    state: oneOf(RULE_STATES),
    cappedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'State capped: its hourly message cap holds until then (messages recorded as capped)',
    }),
    normalized: Type.Array(
      Type.Object({ field: Type.String(), requested: Type.String(), used: Type.String() }),
      { description: 'Fields the server changed on the way in, e.g. symbol btc → BTCUSDT' },
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    lastTriggeredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    triggerCount: Type.Integer(),
  },
  { $id: 'AlertRule' },
);

export const RulePage = Type.Object({
  data: Type.Array(Rule),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page' }),
  applied: Type.Object({ limit: Type.Integer() }),
});

export const ListQuery = Type.Object({
  state: Type.Optional(oneOf(RULE_STATES)),
  type: Type.Optional(oneOf(RULE_TYPES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Default 50; above ${MAX_PAGE} is clamped` })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

export const RuleId = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const TestFired = Type.Object({
  eventId: Type.String({ description: 'evt_… — the event appended to the account event log' }),
  triggerId: Type.String({ description: 'trg_…' }),
});
