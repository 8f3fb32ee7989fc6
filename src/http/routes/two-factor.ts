import { Type } from 'typebox';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import type { RateLimiter } from '../../shared/rate-limiter.ts';
import { actorOf } from '../audit.ts';
import { createCodeAttempts } from '../code-attempts.ts';
import type { FailedAuthLimiter } from '../credentials.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { RecoveryCodes, TwoFactorSecret } from './auth.ts';

const TwoFactorStatus = Type.Object(
  {
    enabled: Type.Boolean(),
    required: Type.Boolean({
      description: 'The server requires two-factor sign-in for every password account',
    }),
    recoveryCodesLeft: Type.Integer({ description: 'Unused recovery codes (0 when two-factor is off)' }),
  },
  { $id: 'TwoFactorStatus' },
);

const Code = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'A TOTP code (or, to turn off, a recovery code)',
    }),
  },
  { additionalProperties: false },
);

const session = { auth: 'session' as const, permission: 'account:read' as const };

export interface TwoFactorRouteDeps {
  accounts: Pick<
    AccountsService,
    'twoFactorStatus' | 'beginTwoFactor' | 'confirmTwoFactor' | 'disableTwoFactor'
  >;
  failures: FailedAuthLimiter;
  limiter: RateLimiter;
  audit: AuditLog;
}

/** Two-factor sign-in on the account page (console session only): status, enrolment, turning it off. */
export function twoFactorRoutes(deps: TwoFactorRouteDeps): RouteModule {
  const { accounts, audit } = deps;
  const codeAttempt = createCodeAttempts(deps);
  return async (app) => {
    app.get(
      '/api/account/two-factor',
      {
        config: session,
        schema: {
          operationId: 'getTwoFactor',
          tags: ['account'],
          summary: 'Whether two-factor sign-in is on for this account, and recovery codes left',
          response: { 200: TwoFactorStatus, ...authProblems },
        },
      },
      async (request) => accounts.twoFactorStatus(request.principal!.userId),
    );

    app.post(
      '/api/account/two-factor',
      {
        config: session,
        schema: {
          operationId: 'beginTwoFactor',
          tags: ['account'],
          summary: 'Start enrolment: a new TOTP secret, shown once; confirm it with a first code',
          response: { 200: TwoFactorSecret, 409: ProblemSchema, 503: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return accounts.beginTwoFactor(request.principal!.userId, request.principal!.email);
      },
    );

    app.post(
      '/api/account/two-factor/confirm',
      {
        config: session,
        schema: {
          operationId: 'confirmTwoFactor',
          tags: ['account'],
          summary: 'Finish enrolment with a first code; answers the recovery codes, shown once',
          body: Code,
          response: {
            200: Type.Object({ recoveryCodes: RecoveryCodes }),
            400: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const { userId } = request.principal!;
        const done = await codeAttempt(request, userId, 'session', () =>
          accounts.confirmTwoFactor(userId, request.body.code),
        );
        await audit.record({
          action: 'two_factor.enrol',
          outcome: 'success',
          ...actorOf(request),
          target: `user:${userId}`,
        });
        reply.header('cache-control', 'no-store');
        return done;
      },
    );

    app.post(
      '/api/account/two-factor/disable',
      {
        config: session,
        schema: {
          operationId: 'disableTwoFactor',
          tags: ['account'],
          summary: 'Turn two-factor sign-in off, proven by a current code or a recovery code',
          body: Code,
          response: { 204: Type.Null(), 400: ProblemSchema, 409: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const { userId } = request.principal!;
        const kind = await codeAttempt(request, userId, 'session', () =>
          accounts.disableTwoFactor(userId, request.body.code),
        );
        const actor = actorOf(request);
        if (kind === 'recovery')
          await audit.record({
            action: 'two_factor.recovery_code_use',
            outcome: 'success',
            ...actor,
            target: `user:${userId}`,
          });
        await audit.record({
          action: 'two_factor.disable',
          outcome: 'success',
          ...actor,
          target: `user:${userId}`,
        });
        return reply.code(204).send(null);
      },
    );
  };
}
