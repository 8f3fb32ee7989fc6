import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config/env.ts';
import { type AccountsService, type Principal, createSignInGate } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import { AppError } from '../../shared/errors.ts';
import type { RateLimiter } from '../../shared/rate-limiter.ts';
import { actorOf } from '../audit.ts';
import { createCodeAttempts } from '../code-attempts.ts';
import { type FailedAuthLimiter, checkSessionCsrf, failureKeys, sessionCookie } from '../credentials.ts';
import { ProblemSchema } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const Login = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

const SignedIn = Type.Object({
  step: Type.Literal('done'),
  email: Type.String(),
  role: Type.String(),
});

const SecondStep = Type.Object({
  step: Type.Union([Type.Literal('code'), Type.Literal('enrol')], {
    description:
      'code: send a TOTP or recovery code to /auth/login/code; enrol: the server requires two-factor sign-in and this account has none yet (/auth/login/enrol, then /auth/login/enrol/confirm)',
  }),
  challenge: Type.String({ description: 'Identifies this sign-in in the next step; valid 5 minutes' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

const CodeStep = Type.Object(
  {
    challenge: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'The 6-digit TOTP code, or a recovery code',
    }),
  },
  { additionalProperties: false },
);

const EnrolStep = Type.Object(
  { challenge: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const TwoFactorSecret = Type.Object(
  {
    secret: Type.String({ description: 'The TOTP secret (base32). Shown once, never again.' }),
    uri: Type.String({ description: 'The same secret as an otpauth:// URI, for an authenticator app' }),
  },
  { $id: 'TwoFactorSecret' },
);

export const RecoveryCodes = Type.Array(Type.String(), {
  description: 'Ten recovery codes, each usable once instead of a TOTP code. Shown once, never again.',
});

/** Sign-ins checked at once per client address (per process); more answer 429 at once. */
export const signInsPerAddress = 2;

/**
 * Console sign-in. The session lives in an HttpOnly, SameSite=Strict cookie; state-changing requests with
 * it must come from the console's own origin (see the auth plugin), so other sites cannot ride on it. An
 * account with two-factor sign-in gets a challenge from the password step and its session from the code step.
 */
export interface AuthRouteDeps {
  config: Pick<Config, 'cookieSecure' | 'sessionTtlHours' | 'passwordSignIn'>;
  accounts: Pick<
    AccountsService,
    | 'signIn'
    | 'logout'
    | 'authenticateSession'
    | 'challengeOf'
    | 'completeSignIn'
    | 'beginEnrolmentAtSignIn'
    | 'confirmEnrolmentAtSignIn'
  >;
  /** The same counter of failed authentications as tokens and sessions (credentials.ts). */
  failures: FailedAuthLimiter;
  /** Counts wrong two-factor codes per account (the shared limiter, a tighter limit). */
  limiter: RateLimiter;
  audit: AuditLog;
}

/**
 * `Secure` whenever the request came over https: directly, or through a trusted proxy's X-Forwarded-Proto
 * (`request.protocol` believes it only with TRUST_PROXY). MERIDIAN_COOKIE_SECURE=true forces it on.
 */
export const secureCookie = (config: Pick<Config, 'cookieSecure'>, request: FastifyRequest) =>
  config.cookieSecure || request.protocol === 'https';

/** The session cookie as every sign-in sets it (password or single sign-on). */
export function setSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  config: Pick<Config, 'cookieSecure' | 'sessionTtlHours'>,
  sessionId: string,
): void {
  reply.setCookie(sessionCookie, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookie(config, request),
    path: '/',
    maxAge: config.sessionTtlHours * 3600,
  });
}

export function authRoutes(deps: AuthRouteDeps): RouteModule {
  const { accounts, audit } = deps;
  const signIns = createSignInGate(signInsPerAddress);
  const codeAttempt = createCodeAttempts(deps);
  const address = (request: FastifyRequest) => ({ address: request.ip });

  const setSession = (request: FastifyRequest, reply: FastifyReply, sessionId: string) =>
    setSessionCookie(reply, request, deps.config, sessionId);

  /** At most `signInsPerAddress` sign-in steps from one address at once; `work` runs holding a place. */
  async function gated<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
    const release = signIns.enter(failureKeys.address(request));
    if (!release)
      throw new AppError(
        'auth_rate_limited',
        `a sign-in from this address is already being checked (at most ${signInsPerAddress} at once); retry in a second`,
        { headers: { 'retry-after': '1' } },
      );
    try {
      return await work();
    } finally {
      release();
    }
  }

  const signedIn = async (request: FastifyRequest, principal: Principal, twoFactor: string) => {
    await audit.record({
      action: 'auth.sign_in',
      outcome: 'success',
      actorId: principal.userId,
      credential: 'password',
      ...address(request),
      target: `user:${principal.userId}`,
      detail: { twoFactor },
    });
    return { step: 'done' as const, email: principal.email, role: principal.role };
  };

  return async (app) => {
    // Only these routes read or set cookies; elsewhere the session cookie is read on demand (sessionCookieOf).
    await app.register(cookie);
    app.post(
      '/auth/login',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'login',
          tags: ['auth'],
          summary: 'Sign in to the console: the session cookie, or the two-factor step it needs first',
          security: [],
          body: Login,
          response: {
            200: Type.Union([SignedIn, SecondStep]),
            401: ProblemSchema,
            403: ProblemSchema,
            429: ProblemSchema,
            503: ProblemSchema,
          },
        },
      },
      (request, reply) => {
        if (!deps.config.passwordSignIn)
          throw new AppError(
            'password_sign_in_disabled',
            'this server signs in to the console with single sign-on only (GET /auth/methods names the provider)',
          );
        return gated(request, async () => {
          const addressKey = failureKeys.address(request);
          // Charged before the password is checked, so parallel attempts cannot all slip under the limit.
          await deps.failures.reserve(addressKey, 'too many failed sign-ins from this address');
          const accountKey = failureKeys.account(request.body.email);
          await deps.failures.reserve(accountKey, 'too many failed sign-ins for this account');
          let failed = false;
          try {
            const result = await accounts.signIn(request.body.email, request.body.password);
            if (result.step !== 'done')
              return {
                step: result.step,
                challenge: result.challenge,
                expiresAt: new Date(result.expiresAt).toISOString(),
              };
            setSession(request, reply, result.sessionId);
            return await signedIn(request, result.principal, 'none');
          } catch (error) {
            failed = error instanceof AppError && error.code === 'invalid_credentials';
            if (failed)
              await audit.record({
                action: 'auth.sign_in',
                outcome: 'failure',
                actorId: null,
                credential: 'password',
                ...address(request),
                target: `email:${request.body.email.trim().toLowerCase()}`,
              });
            throw error;
          } finally {
            // Only a wrong email or password keeps its places; a success (or storage failing) gives them back.
            if (!failed)
              await Promise.all([deps.failures.refund(addressKey), deps.failures.refund(accountKey)]);
          }
        });
      },
    );

    app.post(
      '/auth/login/code',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'loginCode',
          tags: ['auth'],
          summary: 'Second sign-in step: a TOTP code or a recovery code (sets the session cookie)',
          security: [],
          body: CodeStep,
          response: {
            200: SignedIn,
            400: ProblemSchema,
            401: ProblemSchema,
            429: ProblemSchema,
            503: ProblemSchema,
          },
        },
      },
      (request, reply) =>
        gated(request, async () => {
          const { challenge, code } = request.body;
          const { userId } = await accounts.challengeOf(challenge, 'code');
          const done = await codeAttempt(request, userId, 'password', () =>
            accounts.completeSignIn(challenge, code),
          );
          if (done.codeKind === 'recovery')
            await audit.record({
              action: 'two_factor.recovery_code_use',
              outcome: 'success',
              actorId: userId,
              credential: 'password',
              ...address(request),
              target: `user:${userId}`,
            });
          setSession(request, reply, done.sessionId);
          return signedIn(request, done.principal, done.codeKind);
        }),
    );

    app.post(
      '/auth/login/enrol',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'loginEnrol',
          tags: ['auth'],
          summary: 'Required enrolment at sign-in: a new TOTP secret for the account (shown once)',
          security: [],
          body: EnrolStep,
          response: {
            200: TwoFactorSecret,
            400: ProblemSchema,
            401: ProblemSchema,
            409: ProblemSchema,
            503: ProblemSchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return accounts.beginEnrolmentAtSignIn(request.body.challenge);
      },
    );

    app.post(
      '/auth/login/enrol/confirm',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'loginEnrolConfirm',
          tags: ['auth'],
          summary: 'Required enrolment at sign-in: the first code turns two-factor on and signs in',
          security: [],
          body: CodeStep,
          response: {
            200: Type.Object({ ...SignedIn.properties, recoveryCodes: RecoveryCodes }),
            400: ProblemSchema,
            401: ProblemSchema,
            409: ProblemSchema,
            429: ProblemSchema,
            503: ProblemSchema,
          },
        },
      },
      (request, reply) =>
        gated(request, async () => {
          const { challenge, code } = request.body;
          const { userId } = await accounts.challengeOf(challenge, 'enrol');
          const done = await codeAttempt(request, userId, 'password', () =>
            accounts.confirmEnrolmentAtSignIn(challenge, code),
          );
          await audit.record({
            action: 'two_factor.enrol',
            outcome: 'success',
            actorId: userId,
            credential: 'password',
            ...address(request),
            target: `user:${userId}`,
            detail: { atSignIn: true },
          });
          setSession(request, reply, done.sessionId);
          reply.header('cache-control', 'no-store');
          return {
            ...(await signedIn(request, done.principal, 'enrolled')),
            recoveryCodes: done.recoveryCodes,
          };
        }),
    );

    app.post(
      '/auth/logout',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'logout',
          tags: ['auth'],
          summary: 'Sign out of the console',
          security: [],
          response: { 204: Type.Null(), 403: ProblemSchema },
        },
      },
      async (request, reply) => {
        // Ending a session is a cookie-authenticated write like any other: only from the console's origin.
        checkSessionCsrf(request);
        const session = request.cookies[sessionCookie];
        if (session) {
          // Who signs out, for the audit log (an ended or unknown session signs nobody out).
          const principal = await accounts.authenticateSession(session).catch(() => undefined);
          await accounts.logout(session);
          if (principal)
            await audit.record({
              action: 'auth.sign_out',
              outcome: 'success',
              ...actorOf(request),
              actorId: principal.userId,
              credential: 'session',
              target: `user:${principal.userId}`,
            });
        }
        reply.clearCookie(sessionCookie, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: secureCookie(deps.config, request),
        });
        return reply.code(204).send(null);
      },
    );
  };
}
