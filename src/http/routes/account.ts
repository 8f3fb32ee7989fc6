import { Type } from 'typebox';
import {
  type AccountsService,
  type Permission as PermissionName,
  type Principal,
  permissions,
} from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { actorOf } from '../audit.ts';
import { AppError } from '../../shared/errors.ts';
import { parseDuration } from '../../modules/identifiers/index.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { sendBytes } from '../reply.ts';

const Permission = Type.Unsafe<PermissionName>({ type: 'string', enum: [...permissions] });

const Account = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('viewer'), Type.Literal('member'), Type.Literal('admin')], {
      description: "The account's server-wide role: it caps what the account may do in any organization",
    }),
    organization: Type.Object(
      {
        id: Type.String(),
        role: Type.Union([
          Type.Literal('owner'),
          Type.Literal('admin'),
          Type.Literal('member'),
          Type.Literal('viewer'),
        ]),
      },
      { description: 'The organization these credentials act in, and the role there' },
    ),
    plan: Type.Union([Type.Literal('standard'), Type.Literal('pro')]),
    limits: Type.Object({ requestsPerMinute: Type.Integer(), wsConnections: Type.Integer() }),
    permissions: Type.Array(Permission),
    authenticatedWith: Type.Union([Type.Literal('token'), Type.Literal('session')]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Account' },
);

const Token = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    start: Type.String({ description: 'The first characters of the secret, to tell tokens apart' }),
    permissions: Type.Union([Type.Array(Permission), Type.Null()], {
      description: "null: all of the owner's permissions",
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Updated at most once a minute',
    }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  },
  { $id: 'Token' },
);

const CreatedToken = Type.Object({
  token: Type.String({ description: 'The secret. Shown once, never again: store it now.' }),
  details: Token,
});

const CreateToken = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    expiresIn: Type.Optional(Type.String({ description: 'Lifetime such as 30d, 12h, 2w', maxLength: 10 })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
    permissions: Type.Optional(Type.Array(Permission, { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

const TokenId = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** The most tokens one page holds; a larger `limit` is clamped. */
const MAX_TOKEN_PAGE = 100;

const TokenPage = Type.Object({
  data: Type.Array(Token),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page' }),
  applied: Type.Object({ limit: Type.Integer() }),
});

const TokenListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `Default 50; above ${MAX_TOKEN_PAGE} is clamped` }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});
const session = { auth: 'session' as const, permission: 'account:read' as const };

/** Who am I, and API-token management (console session only: an API token cannot mint tokens). */
export interface AccountRouteDeps {
  accounts: Pick<
    AccountsService,
    'account' | 'createToken' | 'listTokensPage' | 'revokeToken' | 'rotateToken'
  >;
  clock: Clock;
  audit: AuditLog;
}

export function accountRoutes(deps: AccountRouteDeps): RouteModule {
  const { accounts, clock, audit } = deps;
  const accountJson = new WeakMap<object, Buffer>();
  /** The principal object lives as long as its cache entry, so its JSON is built once per entry. */
  const accountBody = (principal: Principal): Buffer => {
    let body = accountJson.get(principal);
    if (!body) {
      body = Buffer.from(JSON.stringify(accounts.account(principal)));
      accountJson.set(principal, body);
    }
    return body;
  };
  return async (app) => {
    app.get(
      '/api/account',
      {
        config: { permission: 'account:read' },
        compress: false, // sendBytes encodes the body itself
        schema: {
          operationId: 'getAccount',
          tags: ['account'],
          summary: 'The signed-in account: email, role, plan, limits, permissions',
          response: { 200: Account, ...authProblems },
        },
      },
      // Synchronous (nothing to await): an async handler costs a promise and a microtask turn per request.
      (request, reply) => {
        sendBytes(reply.type('application/json; charset=utf-8'), accountBody(request.principal!));
      },
    );

    app.get(
      '/api/account/tokens',
      {
        config: session,
        schema: {
          operationId: 'listTokens',
          tags: ['account'],
          summary: "The account's API tokens, newest first, in pages (never their secrets)",
          querystring: TokenListQuery,
          response: { 200: TokenPage, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request) => {
        const limit = Math.min(request.query.limit ?? 50, MAX_TOKEN_PAGE);
        const page = await accounts.listTokensPage(request.principal!.userId, {
          limit,
          cursor: request.query.cursor,
          orgId: request.principal!.orgId,
        });
        return { ...page, applied: { limit } };
      },
    );

    app.post(
      '/api/account/tokens',
      {
        config: session,
        schema: {
          operationId: 'createToken',
          tags: ['account'],
          summary: 'Create an API token; the secret is in this response only',
          body: CreateToken,
          response: { 201: CreatedToken, 400: ProblemSchema, 409: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const { name, expiresIn, expiresAt, permissions: narrowed } = request.body;
        if (expiresIn !== undefined && expiresAt !== undefined) {
          throw new AppError('validation_failed', 'give expiresIn or expiresAt, not both', {
            errors: [{ pointer: '/body/expiresIn', message: 'cannot be combined with expiresAt' }],
          });
        }
        let expiry: number | null = null;
        if (expiresIn !== undefined) {
          const ms = parseDuration(expiresIn);
          if (ms === undefined || ms <= 0) {
            throw new AppError('validation_failed', 'expiresIn must look like 30d, 12h or 2w', {
              errors: [{ pointer: '/body/expiresIn', message: 'must look like 30d, 12h or 2w' }],
            });
          }
          expiry = clock.now() + ms;
        } else if (expiresAt !== undefined) {
          expiry = Date.parse(expiresAt);
        }
        const created = await accounts.createToken(request.principal!.userId, {
          name,
          expiresAt: expiry,
          permissions: narrowed ?? null,
          orgId: request.principal!.orgId,
        });
        await audit.record({
          action: 'token.create',
          outcome: 'success',
          ...actorOf(request),
          target: `token:${created.view.id}`,
          detail: { name: created.view.name },
        });
        reply.code(201).header('cache-control', 'no-store');
        return { token: created.token, details: created.view };
      },
    );

    app.delete(
      '/api/account/tokens/:id',
      {
        config: session,
        schema: {
          operationId: 'revokeToken',
          tags: ['account'],
          summary: 'Revoke a token; its open push connections close within seconds',
          params: TokenId,
          response: { 200: Token, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => {
        const view = await accounts.revokeToken(
          request.principal!.userId,
          request.params.id,
          request.principal!.orgId,
        );
        await audit.record({
          action: 'token.revoke',
          outcome: 'success',
          ...actorOf(request),
          target: `token:${view.id}`,
        });
        return view;
      },
    );

    app.post(
      '/api/account/tokens/:id/rotate',
      {
        config: session,
        schema: {
          operationId: 'rotateToken',
          tags: ['account'],
          summary:
            'Replace a token with a new secret (same name, permissions, expiry); the old one is revoked',
          params: TokenId,
          response: { 201: CreatedToken, 404: ProblemSchema, 409: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const created = await accounts.rotateToken(
          request.principal!.userId,
          request.params.id,
          request.principal!.orgId,
        );
        await audit.record({
          action: 'token.rotate',
          outcome: 'success',
          ...actorOf(request),
          target: `token:${request.params.id}`,
          detail: { replacedBy: created.view.id },
        });
        reply.code(201).header('cache-control', 'no-store');
        return { token: created.token, details: created.view };
      },
    );
  };
}
