import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  type AlertsService,
  FLOW_RULE_DIRECTIONS,
  MAX_PAGE,
  PRICE_OPS,
  RULE_STATES,
  RULE_TYPES,
  RULE_WINDOWS,
  type RuleType,
  TRIGGER_MODES,
} from '../../modules/alerts/index.ts';
import { AppError, type ProblemDetail, validationError } from '../../shared/errors.ts';
import { validationProblems } from '../plugins/errors.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

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
    asset: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: 'ETH, USDT, … (absent: any)' }),
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
    events: Type.Optional(
      Type.Boolean({ description: 'Carry the events on the /events stream (default true)' }),
    ),
  },
  { additionalProperties: false },
);

const common = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  trigger: Type.Optional(Trigger),
  expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  channels: Type.Optional(Channels),
};
const SymbolField = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Any accepted spelling: btc, BTC/USDT, …',
});

/** One object per rule type; the error filter below reports only the branch the body's `type` names. */
const CreateRule = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('price'), symbol: SymbolField, condition: PriceCondition, ...common },
      { additionalProperties: false },
    ),
    Type.Object(
      { type: Type.Literal('volume'), symbol: SymbolField, condition: VolumeCondition, ...common },
      { additionalProperties: false },
    ),
    Type.Object(
      { type: Type.Literal('address_flow'), condition: FlowCondition, ...common },
      { additionalProperties: false },
    ),
  ],
  { description: 'An alert rule; the shape of `condition` depends on `type`' },
);

const PatchRule = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    state: Type.Optional(oneOf(['active', 'paused'] as const, 'paused: not evaluated; active: resume')),
    symbol: Type.Optional(SymbolField),
    condition: Type.Optional(Type.Union([PriceCondition, VolumeCondition, FlowCondition])),
    trigger: Type.Optional(Trigger),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    channels: Type.Optional(Channels),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Rule = Type.Object(
  {
    id: Type.String({ description: 'alr_…' }),
    name: Type.String(),
    type: oneOf(RULE_TYPES),
    symbol: Type.Optional(Type.String({ description: 'price and volume rules: the canonical symbol used' })),
    condition: Type.Union([PriceCondition, VolumeCondition, FlowCondition]),
    trigger: Type.Object({ mode: oneOf(TRIGGER_MODES), cooldownSec: Type.Integer() }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    channels: Type.Object({ webhookIds: Type.Array(Type.String()), events: Type.Boolean() }),
    state: oneOf(RULE_STATES),
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

const RulePage = Type.Object({
  data: Type.Array(Rule),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page' }),
  applied: Type.Object({ limit: Type.Integer() }),
});

const ListQuery = Type.Object({
  state: Type.Optional(oneOf(RULE_STATES)),
  type: Type.Optional(oneOf(RULE_TYPES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Default 50; above ${MAX_PAGE} is clamped` })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

const RuleId = Type.Object({ id: Type.String({ maxLength: 64 }) });

const TestFired = Type.Object({
  eventId: Type.String({ description: 'evt_… — the event appended to the account event log' }),
  triggerId: Type.String({ description: 'trg_…' }),
});

/**
 * The bodies alerts append to the account event log — delivered byte for byte by webhooks and on the
 * `/events` stream. Declared here so they are part of the OpenAPI document (components).
 */
const EventRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: oneOf(RULE_TYPES),
  symbol: Type.Optional(Type.String()),
  condition: Type.Union([PriceCondition, VolumeCondition, FlowCondition]),
  trigger: Type.Object({ mode: oneOf(TRIGGER_MODES), cooldownSec: Type.Integer() }),
  channels: Type.Object({ webhookIds: Type.Array(Type.String()), events: Type.Boolean() }),
});
const EventTrigger = Type.Object({
  id: Type.String({ description: 'trg_…' }),
  firedAt: Type.String({ format: 'date-time', description: 'When the evaluator fired' }),
  eventAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'Time of the market or chain event' }),
  ),
  key: Type.Optional(Type.String({ description: 'The event key: unique per rule (exactly once)' })),
  value: Type.Optional(
    Type.Number({ description: 'The observed value: price, change %, quote volume, USD' }),
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
const AlertTriggeredEvent = envelope(
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
    note: Type.Optional(Type.String()),
  }),
  'AlertTriggeredEvent',
  'A price or volume rule fired (event type alert.triggered)',
);
const OnchainFlowEvent = envelope(
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

interface AttachedValidation {
  validation?: Array<{
    instancePath: string;
    schemaPath?: string;
    message?: string;
    keyword: string;
    params: Record<string, unknown>;
  }>;
}

/**
 * Schema problems of the union branch that applies (the body's `type`, or the stored rule's for an edit):
 * Ajv reports every branch of a union, and only one is what the client meant.
 */
function branchProblems(
  request: FastifyRequest,
  anyOfAt: string,
  branch: number | undefined,
): ProblemDetail[] {
  const errors = (request.validationError as AttachedValidation | undefined)?.validation ?? [];
  const prefix = `${anyOfAt}/anyOf/`;
  const kept = errors.filter((e) => {
    const path = e.schemaPath ?? '';
    if (!path.startsWith(prefix)) return path !== anyOfAt.concat('/anyOf');
    return branch !== undefined && path.startsWith(`${prefix}${branch}/`);
  });
  return validationProblems(kept, 'body');
}

const noteNormalized = (
  reply: { header(n: string, v: string): unknown },
  view: { normalized: Array<{ field: string; requested: string; used: string }> },
) => {
  const log = new NormalizationLog();
  for (const n of view.normalized) log.add(n.field, n.requested, n.used);
  log.apply(reply);
};

/** Alert rules: create, list, read, edit (pause/resume), delete, and a test firing. */
export interface AlertsRouteDeps {
  alerts: Pick<
    AlertsService,
    'create' | 'fieldProblems' | 'get' | 'list' | 'remove' | 'test' | 'typeOf' | 'update'
  >;
}

export function alertsRoutes(deps: AlertsRouteDeps): RouteModule {
  const { alerts } = deps;
  return async (app) => {
    for (const schema of [AlertTriggeredEvent, OnchainFlowEvent]) app.addSchema(schema);

    app.post(
      '/api/alerts',
      {
        config: { permission: 'alerts:write' },
        attachValidation: true,
        schema: {
          operationId: 'createAlertRule',
          tags: ['alerts'],
          summary: 'Create an alert rule (price, volume or address_flow)',
          body: CreateRule,
          response: { 201: Rule, 400: ProblemSchema, 409: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        if (request.validationError) {
          const raw = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
          const branch = RULE_TYPES.indexOf(raw.type as RuleType);
          let problems: ProblemDetail[];
          if (!body || typeof body !== 'object' || Array.isArray(body))
            problems = [{ pointer: '/body', message: 'must be a JSON object' }];
          else if (branch < 0)
            problems = [
              {
                pointer: '/body/type',
                message: raw.type === undefined ? 'is required' : `must be one of ${RULE_TYPES.join(', ')}`,
              },
            ];
          else problems = branchProblems(request, '#', branch);
          const reported = new Set(problems.map((p) => p.pointer));
          throw validationError([...problems, ...alerts.fieldProblems(raw, reported)]);
        }
        const view = await alerts.create(
          { accountId: request.principal!.userId, plan: request.principal!.plan },
          request.body,
        );
        noteNormalized(reply, view);
        reply.code(201);
        return view;
      },
    );

    app.get(
      '/api/alerts',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listAlertRules',
          tags: ['alerts'],
          summary: "The account's alert rules, newest first",
          querystring: ListQuery,
          response: { 200: RulePage, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const page = await alerts.list(request.principal!.userId, request.query);
        if (request.query.limit !== undefined)
          new NormalizationLog()
            .add('limit', String(request.query.limit), String(page.applied.limit))
            .apply(reply);
        return page;
      },
    );

    app.get(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'getAlertRule',
          tags: ['alerts'],
          summary: 'One alert rule',
          params: RuleId,
          response: { 200: Rule, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => alerts.get(request.principal!.userId, request.params.id),
    );

    app.patch(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:write' },
        attachValidation: true,
        schema: {
          operationId: 'updateAlertRule',
          tags: ['alerts'],
          summary:
            'Edit a rule; state active/paused resumes or pauses it (a condition edit resets its crossing side)',
          params: RuleId,
          body: PatchRule,
          response: {
            200: Rule,
            400: ProblemSchema,
            404: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const accountId = request.principal!.userId;
        const { id } = request.params as { id: string };
        const type = await alerts.typeOf(accountId, id);
        if (!type) throw new AppError('not_found', `alert rule ${id} does not exist`);
        if (request.validationError) {
          const body = request.body as unknown;
          if (!body || typeof body !== 'object' || Array.isArray(body))
            throw validationError([
              { pointer: '/body', message: 'must be a JSON object with the fields to change' },
            ]);
          const problems = branchProblems(request, '#/properties/condition', RULE_TYPES.indexOf(type));
          if (problems.length === 0)
            problems.push({ pointer: '/body', message: 'must name at least one field to change' });
          const reported = new Set(problems.map((p) => p.pointer));
          throw validationError([
            ...problems,
            ...alerts.fieldProblems(body as Record<string, unknown>, reported),
          ]);
        }
        const view = await alerts.update(
          { accountId, plan: request.principal!.plan },
          id,
          request.body as Parameters<AlertsService['update']>[2],
        );
        noteNormalized(reply, view);
        return view;
      },
    );

    app.delete(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'deleteAlertRule',
          tags: ['alerts'],
          summary: 'Delete a rule (its past events stay in the event log)',
          params: RuleId,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await alerts.remove(request.principal!.userId, request.params.id);
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/alerts/:id/test',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'testAlertRule',
          tags: ['alerts'],
          summary: 'Append a test event (test: true) for the rule, delivered like a real one',
          params: RuleId,
          response: { 202: TestFired, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const fired = await alerts.test(request.principal!.userId, request.params.id);
        reply.code(202);
        return fired;
      },
    );
  };
}
