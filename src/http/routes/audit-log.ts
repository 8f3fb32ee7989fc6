import { Readable } from 'node:stream';
import { type Static, Type } from 'typebox';
import {
  AUDIT_ACTIONS,
  type AuditFilter,
  type AuditService,
  CREDENTIAL_KINDS,
} from '../../modules/audit/index.ts';
import { AppError } from '../../shared/errors.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const MAX_PAGE = 200;

const AuditEntry = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    action: Type.Unsafe<(typeof AUDIT_ACTIONS)[number]>({ type: 'string', enum: [...AUDIT_ACTIONS] }),
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
    actorId: Type.Union([Type.String(), Type.Null()], {
      description: 'The user who acted; null when unknown',
    }),
    credential: Type.Unsafe<(typeof CREDENTIAL_KINDS)[number]>({
      type: 'string',
      enum: [...CREDENTIAL_KINDS],
      description:
        'How the actor authenticated: session, token, password (sign-in), sso (single sign-on), operator (CLI), none',
    }),
    address: Type.Union([Type.String(), Type.Null()], {
      description: 'The client address (null: not over HTTP)',
    }),
    target: Type.Union([Type.String(), Type.Null()], {
      description: 'What the action concerned, as kind:id',
    }),
    detail: Type.Union([
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
      Type.Null(),
    ]),
  },
  { $id: 'AuditEntry' },
);

const AuditPage = Type.Object({
  data: Type.Array(AuditEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page',
  }),
  applied: Type.Object({ limit: Type.Integer() }),
});

const AuditQuery = Type.Object({
  action: Type.Optional(
    Type.Unsafe<(typeof AUDIT_ACTIONS)[number]>({ type: 'string', enum: [...AUDIT_ACTIONS] }),
  ),
  actor: Type.Optional(Type.String({ maxLength: 64, description: 'Only entries by this user id' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Default 50; above ${MAX_PAGE} is clamped` })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('jsonl')], {
      description: 'jsonl: every matching entry as JSON lines (same as Accept: application/x-ndjson)',
    }),
  ),
});

export interface AuditLogRouteDeps {
  audit: Pick<AuditService, 'page' | 'all'>;
}

const ndjson = 'application/x-ndjson';

/** The audit log for administrators: pages with filters, or the whole filtered log as JSON lines. */
export function auditLogRoutes(deps: AuditLogRouteDeps): RouteModule {
  return async (app) => {
    app.get(
      '/api/audit-log',
      {
        config: { permission: 'users:manage' },
        schema: {
          operationId: 'listAuditLog',
          tags: ['audit'],
          summary:
            'Security-relevant actions, newest first (admins); filters, cursor pages, a JSON-lines export',
          querystring: AuditQuery,
          response: {
            200: Type.Unsafe<Static<typeof AuditPage>>({
              content: {
                'application/json': { schema: AuditPage },
                [ndjson]: {
                  schema: {
                    type: 'string',
                    description: 'One AuditEntry per line, newest first, every match',
                  },
                },
              },
            }),
            400: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const filter: AuditFilter = {
          action: q.action,
          actorId: q.actor,
          from: q.from === undefined ? undefined : Date.parse(q.from),
          to: q.to === undefined ? undefined : Date.parse(q.to),
        };
        if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to)
          throw new AppError('validation_failed', 'from must be before to', {
            errors: [{ pointer: '/query/from', message: 'must be before to' }],
          });
        const wantsLines =
          q.format === 'jsonl' || (q.format === undefined && request.headers.accept?.includes(ndjson));
        if (wantsLines) {
          const lines = Readable.from(
            (async function* () {
              for await (const entry of deps.audit.all(filter)) yield `${JSON.stringify(entry)}\n`;
            })(),
          );
          // A stream is sent as it is (no response schema applies); the lines are AuditEntry views already.
          return reply
            .type(ndjson)
            .header('cache-control', 'no-store')
            .send(lines as never);
        }
        const limit = Math.min(q.limit ?? 50, MAX_PAGE);
        const page = await deps.audit.page(filter, { limit, cursor: q.cursor });
        return { ...page, applied: { limit } };
      },
    );
  };
}
