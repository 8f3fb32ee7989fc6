import { Type } from 'typebox';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import {
  type AlertChannelsService,
  CHANNEL_TESTS_PER_HOUR,
  MAX_TEMPLATE_LENGTH,
  TEMPLATE_VARIABLES,
} from '../../modules/alert-channels/index.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { DeliveryPage, DeliverySchema, PageQuery, page } from './webhooks.ts';

const Time = Type.String({ format: 'date-time' });
const Name = Type.Optional(Type.String({ minLength: 1, maxLength: 100 }));

const ChannelSchema = Type.Object(
  {
    id: Type.String({ description: 'ch_…' }),
    type: Type.Union([
      Type.Literal('email'),
      Type.Literal('telegram'),
      Type.Literal('discord'),
      Type.Literal('slack'),
    ]),
    name: Type.Union([Type.String(), Type.Null()]),
    target: Type.String({
      description: 'Where it sends (the address, the chat, the webhook without its token)',
    }),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled'), Type.Literal('unverified')], {
      description: 'unverified: an email address that has not confirmed its code; nothing is sent to it',
    }),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: Time,
    updatedAt: Time,
  },
  { $id: 'AlertChannel' },
);

const CreateChannelBody = Type.Union([
  Type.Object(
    { type: Type.Literal('email'), address: Type.String({ format: 'email', maxLength: 254 }), name: Name },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('telegram'),
      botToken: Type.String({
        pattern: '^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$',
        description: 'The bot token from @BotFather (never shown again)',
      }),
      chatId: Type.String({ pattern: '^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$' }),
      name: Name,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('discord'),
      url: Type.String({ maxLength: 500, description: 'https://discord.com/api/webhooks/<id>/<token>' }),
      name: Name,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('slack'),
      url: Type.String({ maxLength: 500, description: 'https://hooks.slack.com/services/…' }),
      name: Name,
    },
    { additionalProperties: false },
  ),
]);

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const VerifyBody = Type.Object(
  { code: Type.String({ pattern: '^\\s*[0-9]{6}\\s*$', description: 'The 6-digit code emailed' }) },
  { additionalProperties: false },
);

const PreviewBody = Type.Object(
  {
    template: Type.Optional(
      Type.String({
        maxLength: MAX_TEMPLATE_LENGTH,
        description: "The template being edited; absent: the rule type's default",
      }),
    ),
    ruleType: Type.Optional(
      Type.String({ pattern: '^[a-z_]{1,40}$', description: 'price (default), volume, address_flow, …' }),
    ),
    rule: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ maxLength: 100 })),
          symbol: Type.Optional(Type.String({ maxLength: 40 })),
          condition: Type.Optional(
            Type.Record(Type.String(), Type.Unknown(), {
              description: "The rule's condition as it would be saved",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const PreviewSchema = Type.Object(
  {
    template: Type.String({ description: 'The template rendered (the default when none was given)' }),
    unknownVariables: Type.Array(Type.String(), {
      description: 'Placeholders that name no variable: saving a rule with them is refused (400)',
    }),
    values: Type.Record(Type.Union(TEMPLATE_VARIABLES.map((v) => Type.Literal(v))), Type.String(), {
      description: 'The values filled in: made up from the rule (it fires at its own level, now)',
    }),
    text: Type.String({ description: 'The message as plain text' }),
    telegram: Type.String({
      description: 'The `text` of the Telegram sendMessage call (MarkdownV2, escaped)',
    }),
    discord: Type.String({ description: 'The Discord webhook `content` (markdown escaped)' }),
    slack: Type.String({ description: 'The Slack incoming-webhook `text` (mrkdwn escaped)' }),
    email: Type.Object({ subject: Type.String(), text: Type.String(), html: Type.String() }),
  },
  { $id: 'AlertTemplatePreview' },
);

export interface AlertChannelRouteDeps {
  audit: AuditLog;
  channels: Pick<
    AlertChannelsService,
    'create' | 'list' | 'get' | 'remove' | 'verify' | 'preview' | 'sendTest' | 'deliveries'
  >;
}

/** Alert channels: email (verified by a code), Telegram, Discord and Slack. Credentials are never returned. */
export function alertChannelRoutes(deps: AlertChannelRouteDeps): RouteModule {
  const { channels } = deps;
  const tags = ['alerts'];
  return async (app) => {
    app.post(
      '/api/alert-channels',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'createAlertChannel',
          tags,
          summary:
            'Add an alert channel; an email address is sent a code to confirm (status unverified until then)',
          body: CreateChannelBody,
          response: {
            201: ChannelSchema,
            400: ProblemSchema,
            409: ProblemSchema,
            503: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const created = await channels.create(request.principal!.orgId, request.body);
        await deps.audit.record({
          action: 'channel.create',
          outcome: 'success',
          ...actorOf(request),
          target: `channel:${created.id}`,
          detail: { type: created.type },
        });
        reply.code(201);
        return created;
      },
    );

    app.get(
      '/api/alert-channels',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listAlertChannels',
          tags,
          summary: "The account's alert channels (never their credentials)",
          response: { 200: Type.Object({ data: Type.Array(ChannelSchema) }), ...authProblems },
        },
      },
      async (request) => ({ data: await channels.list(request.principal!.orgId) }),
    );

    app.post(
      '/api/alert-channels/preview',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'previewAlertTemplate',
          tags,
          summary:
            'Render a message template for every channel as the rule being edited would send it (nothing is sent)',
          body: PreviewBody,
          response: { 200: PreviewSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request) => channels.preview(request.body),
    );

    app.get(
      '/api/alert-channels/:id',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'getAlertChannel',
          tags,
          summary: 'One alert channel',
          params: IdParams,
          response: { 200: ChannelSchema, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => channels.get(request.principal!.orgId, request.params.id),
    );

    app.delete(
      '/api/alert-channels/:id',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'deleteAlertChannel',
          tags,
          summary: 'Delete an alert channel; its pending deliveries are dropped',
          params: IdParams,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await channels.remove(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'channel.delete',
          outcome: 'success',
          ...actorOf(request),
          target: `channel:${request.params.id}`,
        });
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/alert-channels/:id/verify',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'verifyAlertChannel',
          tags,
          summary: 'Confirm an email channel with the code it received (5 tries, 24 h)',
          params: IdParams,
          body: VerifyBody,
          response: {
            200: ChannelSchema,
            400: ProblemSchema,
            404: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request) => {
        const verified = await channels.verify(
          request.principal!.orgId,
          request.params.id,
          request.body.code,
        );
        await deps.audit.record({
          action: 'channel.verify',
          outcome: 'success',
          ...actorOf(request),
          target: `channel:${request.params.id}`,
        });
        return verified;
      },
    );

    app.post(
      '/api/alert-channels/:id/test',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'testAlertChannel',
          tags,
          summary: `Send the channel one test message through the delivery outbox (202 with its delivery, pending; ${CHANNEL_TESTS_PER_HOUR} per channel per hour)`,
          params: IdParams,
          response: {
            202: DeliverySchema,
            404: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const delivery = await channels.sendTest(request.principal!.userId, request.params.id);
        await deps.audit.record({
          action: 'channel.test',
          outcome: 'success',
          ...actorOf(request),
          target: `channel:${request.params.id}`,
          detail: { delivery: delivery.id },
        });
        reply.code(202);
        return delivery;
      },
    );

    app.get(
      '/api/alert-channels/:id/deliveries',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listAlertChannelDeliveries',
          tags,
          summary:
            "An alert channel's deliveries (its rules' messages and its test messages), newest first, each with every attempt",
          params: IdParams,
          querystring: PageQuery,
          response: { 200: DeliveryPage, 400: ProblemSchema, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) =>
        channels.deliveries(request.principal!.userId, request.params.id, page(request.query)),
    );
  };
}
