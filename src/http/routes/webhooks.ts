import type { OpenAPIV3_1 } from 'openapi-types';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { Type } from 'typebox';
import { EVENT_TYPES, type EventType } from '../../modules/events/index.ts';
import {
  ATTEMPT_OUTCOMES,
  type AttemptOutcome,
  CHANNEL_KINDS,
  type ChannelKind,
  decodeDeliveryCursor,
  type WebhooksService,
} from '../../modules/webhooks/index.ts';
import { cursorProblem } from '../../shared/cursor.ts';
import { validationError } from '../../shared/errors.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const EventTypeSchema = Type.Unsafe<EventType>({ type: 'string', enum: [...EVENT_TYPES] });
const Time = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([Time, Type.Null()]);

const WebhookSchema = Type.Object(
  {
    id: Type.String({ description: 'wh_…' }),
    url: Type.String(),
    events: Type.Array(EventTypeSchema),
    description: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
      description: 'disabled: the receiver answered 410 Gone; nothing more is sent to it',
    }),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    previousSecretExpiresAt: Type.Union([Time, Type.Null()], {
      description: 'After a rotation: until when the previous secret still signs (a second signature)',
    }),
    createdAt: Time,
    updatedAt: Time,
  },
  { $id: 'Webhook' },
);

const WebhookWithSecret = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({
    description: 'The signing secret (whsec_…). Shown in this answer only, never again: store it now.',
  }),
});

const CreateWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https:// URL of the receiver; it must resolve to public addresses (see docs/webhooks.md)',
    }),
    events: Type.Array(EventTypeSchema, { minItems: 1, uniqueItems: true }),
    description: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

const AttemptSchema = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Time,
  outcome: Type.Unsafe<AttemptOutcome>({ type: 'string', enum: [...ATTEMPT_OUTCOMES] }),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliverySchema = Type.Object(
  {
    id: Type.String({
      description: 'msg_… — the webhook-id header of every attempt (stable across retries)',
    }),
    webhookId: Type.String({ description: 'The endpoint: a webhook (wh_…) or an alert channel (ch_…)' }),
    channel: Type.Unsafe<ChannelKind>({
      type: 'string',
      enum: [...CHANNEL_KINDS],
      description: 'What the endpoint is: webhook, email, telegram, discord or slack',
    }),
    eventId: Type.String(),
    eventType: EventTypeSchema,
    ruleId: Type.Union([Type.String(), Type.Null()]),
    test: Type.Boolean(),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('capped')],
      { description: 'capped: not sent, because the rule or the account reached its hourly message cap' },
    ),
    attempts: Type.Integer(),
    nextAttemptAt: NullableTime,
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Time,
    finishedAt: NullableTime,
    attemptLog: Type.Array(AttemptSchema),
  },
  { $id: 'WebhookDelivery' },
);

export const DeliveryPage = Type.Object({
  data: Type.Array(DeliverySchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for older deliveries',
  }),
});

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 50' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** The event envelope every webhook body and `/events` message carries (the stored text, byte for byte). */
export const AccountEventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_… — unique; the `after` resume cursor of /events' }),
    type: EventTypeSchema,
    version: Type.Literal(1, { description: 'Body version; a breaking change gets a new number' }),
    timestamp: Time,
    test: Type.Boolean({ description: 'true when fired by POST /api/alerts/:id/test' }),
    data: Type.Object(
      {
        rule: Type.Object(
          { id: Type.String(), name: Type.String(), type: Type.String() },
          { additionalProperties: true },
        ),
        trigger: Type.Optional(
          Type.Object({ id: Type.String(), firedAt: Time }, { additionalProperties: true }),
        ),
      },
      {
        additionalProperties: true,
        description:
          'alert.triggered: the rule and the market figures that satisfied it. onchain.flow: the flow (status confirmed) or its removal by a reorg (status removed, replaces: the original event id). alert.capped (no trigger): the rule reached its hourly message cap, until cappedUntil',
      },
    ),
  },
  { $id: 'AccountEvent' },
);

/** OpenAPI 3.1 `webhooks`: what Meridian POSTs to a registered URL. */
export const webhookDocs: Record<string, OpenAPIV3_1.PathItemObject> = Object.fromEntries(
  EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        summary: `${type} — signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)`,
        parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
          name,
          in: 'header' as const,
          required: true,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/AccountEvent' } } },
        },
        responses: {
          '2XX': { description: 'Delivered (any other answer is retried; 410 disables the endpoint)' },
        },
      },
    },
  ]),
);

/** A deliveries page's `limit` and `cursor` (a cursor that is not one: 400). */
export const page = (query: { limit?: number; cursor?: string }) => {
  if (query.cursor !== undefined && decodeDeliveryCursor(query.cursor) === undefined)
    throw validationError([cursorProblem]);
  return { limit: query.limit ?? 50, cursor: query.cursor };
};

/** Webhook endpoints (alerts:read / alerts:write) and the delivery history of a webhook or an alert rule. */
export interface WebhookRouteDeps {
  audit: AuditLog;
  webhooks: Pick<
    WebhooksService,
    'create' | 'deliveriesOfRule' | 'deliveriesOfWebhook' | 'get' | 'list' | 'remove' | 'rotate'
  >;
}

export function webhookRoutes(deps: WebhookRouteDeps): RouteModule {
  const { webhooks } = deps;
  const tags = ['webhooks'];
  return async (app) => {
    app.addSchema(AccountEventSchema);

    app.post(
      '/api/webhooks',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'createWebhook',
          tags,
          summary: 'Register a webhook endpoint; the answer holds its signing secret, shown once',
          body: CreateWebhookBody,
          response: {
            201: WebhookWithSecret,
            400: ProblemSchema,
            409: ProblemSchema,
            503: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const created = await webhooks.create(request.principal!.orgId, request.body);
        await deps.audit.record({
          action: 'webhook.create',
          outcome: 'success',
          ...actorOf(request),
          target: `webhook:${created.id}`,
          detail: { url: created.url },
        });
        reply.header('cache-control', 'no-store').code(201);
        return created;
      },
    );

    app.get(
      '/api/webhooks',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listWebhooks',
          tags,
          summary: "The account's webhook endpoints (never their secrets)",
          response: { 200: Type.Object({ data: Type.Array(WebhookSchema) }), ...authProblems },
        },
      },
      async (request) => ({ data: await webhooks.list(request.principal!.orgId) }),
    );

    app.get(
      '/api/webhooks/:id',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'getWebhook',
          tags,
          summary: 'One webhook endpoint',
          params: IdParams,
          response: { 200: WebhookSchema, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => webhooks.get(request.principal!.orgId, request.params.id),
    );

    app.delete(
      '/api/webhooks/:id',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'deleteWebhook',
          tags,
          summary: 'Delete a webhook endpoint; its pending deliveries are dropped',
          params: IdParams,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await webhooks.remove(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'webhook.delete',
          outcome: 'success',
          ...actorOf(request),
          target: `webhook:${request.params.id}`,
        });
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/webhooks/:id/rotate',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'rotateWebhookSecret',
          tags,
          summary: 'New signing secret (shown once); the previous one keeps signing for 24 h',
          params: IdParams,
          response: { 200: WebhookWithSecret, 404: ProblemSchema, 503: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const rotated = await webhooks.rotate(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'webhook.rotate',
          outcome: 'success',
          ...actorOf(request),
          target: `webhook:${request.params.id}`,
        });
        reply.header('cache-control', 'no-store');
        return rotated;
      },
    );

    app.get(
      '/api/webhooks/:id/deliveries',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listWebhookDeliveries',
          tags,
          summary: "A webhook's deliveries, newest first, each with every attempt",
          params: IdParams,
          querystring: PageQuery,
          response: { 200: DeliveryPage, 400: ProblemSchema, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) =>
        webhooks.deliveriesOfWebhook(request.principal!.orgId, request.params.id, page(request.query)),
    );

    app.get(
      '/api/alerts/:id/deliveries',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listAlertDeliveries',
          tags: ['alerts'],
          summary: "An alert rule's webhook deliveries, newest first, each with every attempt",
          params: IdParams,
          querystring: PageQuery,
          response: { 200: DeliveryPage, 400: ProblemSchema, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) =>
        webhooks.deliveriesOfRule(request.principal!.orgId, request.params.id, page(request.query)),
    );
  };
}
