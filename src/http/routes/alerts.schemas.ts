import { type Static, type TObject, Type } from 'typebox';
import {
  DEFAULT_BACKTEST_DAYS,
  DERIVATIVES_WINDOWS,
  FLOW_RULE_DIRECTIONS,
  LEVEL_OPS,
  LIQUIDATION_SIDES,
  MAX_BACKTEST_DAYS,
  MAX_LISTED_FIRINGS,
  MAX_PAGE,
  PRICE_OPS,
  PROBABILITY_HORIZONS,
  PROBABILITY_KINDS,
  RULE_STATES,
  RULE_TYPES,
  RULE_WINDOWS,
  TRIGGER_MODES,
} from '../../modules/alerts/index.ts';

/** The alerts API's schemas: rule bodies, edits, pages, and the event bodies alerts append. */

const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

const Window = oneOf(RULE_WINDOWS);

const PriceCondition = Type.Object(
  {
    op: oneOf(PRICE_OPS),
    value: Type.Number({
      description: 'A price in quote currency; for change_pct a percent (negative = a fall of more than it)',
    }),
    window: Type.Optional(oneOf(RULE_WINDOWS, 'change_pct only: the window the change is measured over')),
  },
  { additionalProperties: false },
);

const VolumeCondition = Type.Object(
  {
    op: Type.Literal('above'),
    value: Type.Number({ exclusiveMinimum: 0, description: 'Quote volume (USD) over the window' }),
    window: Window,
  },
  { additionalProperties: false },
);

const FlowCondition = Type.Object(
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

const FundingCondition = Type.Object(
  {
    op: oneOf(LEVEL_OPS, 'above: the rate is above value; below: under it'),
    value: Type.Number({
      description:
        'Annualized percent, simple: rate × (8760 / intervalHours) × 100 (10.95 = 0.01 % per 8 h); negative: shorts pay longs',
    }),
  },
  { additionalProperties: false },
);

const OpenInterestCondition = Type.Object(
  {
    op: oneOf(LEVEL_OPS, 'above: the change is above value; below: under it'),
    value: Type.Number({
      description: 'Percent change of open interest (USD) over the window; negative = a fall',
    }),
    window: oneOf(DERIVATIVES_WINDOWS, 'The change is measured against the value this long ago'),
  },
  { additionalProperties: false },
);

const LiquidationsCondition = Type.Object(
  {
    op: Type.Literal('above'),
    value: Type.Number({ exclusiveMinimum: 0, description: 'USD liquidated over the window' }),
    side: oneOf(LIQUIDATION_SIDES, 'long: longs closed (a fall); short: shorts closed (a rise); any: both'),
    window: oneOf(DERIVATIVES_WINDOWS),
  },
  { additionalProperties: false },
);

const ProbabilityCondition = Type.Object(
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
const AnyCondition = Type.Union([
  ProbabilityCondition,
  PriceCondition,
  VolumeCondition,
  FlowCondition,
  FundingCondition,
  OpenInterestCondition,
  LiquidationsCondition,
]);

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
