import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config/env.ts';
import { type AccountsService, createSignInGate } from '../../modules/accounts/index.ts';
import { AppError } from '../../shared/errors.ts';
import { type FailedAuthLimiter, checkSessionCsrf, failureKeys, sessionCookie } from '../credentials.ts';
import { ProblemSchema } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const Login = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

/** Sign-ins checked at once per client address (per process); more answer 429 at once. */
export const signInsPerAddress = 2;

/**
 * Console sign-in. The session lives in an HttpOnly, SameSite=Strict cookie; state-changing requests with
 * it must come from the console's own origin (see the auth plugin), so other sites cannot ride on it.
 */
export interface AuthRouteDeps {
  config: Pick<Config, 'cookieSecure' | 'sessionTtlHours' | 'passwordSignIn'>;
  accounts: Pick<AccountsService, 'login' | 'logout'>;
  /** The same counter of failed authentications as tokens and sessions (credentials.ts). */
  failures: FailedAuthLimiter;
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
  const signIns = createSignInGate(signInsPerAddress);
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
          summary: 'Sign in to the console (sets the session cookie)',
          security: [],
          body: Login,
          response: {
            200: Type.Object({ email: Type.String(), role: Type.String() }),
            401: ProblemSchema,
            403: ProblemSchema,
            429: ProblemSchema,
            503: ProblemSchema,
          },
        },
      },
      async (request, reply) => {
        if (!deps.config.passwordSignIn)
          throw new AppError(
            'password_sign_in_disabled',
            'this server signs in to the console with single sign-on only (GET /auth/methods names the provider)',
          );
        const addressKey = failureKeys.address(request);
        const release = signIns.enter(addressKey);
        if (!release)
          throw new AppError(
            'auth_rate_limited',
            `a sign-in from this address is already being checked (at most ${signInsPerAddress} at once); retry in a second`,
            { headers: { 'retry-after': '1' } },
          );
        try {
          // Charged before the password is checked, so parallel attempts cannot all slip under the limit.
          await deps.failures.reserve(addressKey, 'too many failed sign-ins from this address');
          const accountKey = failureKeys.account(request.body.email);
          await deps.failures.reserve(accountKey, 'too many failed sign-ins for this account');
          let failed = false;
          try {
            const { sessionId, principal } = await deps.accounts.login(
              request.body.email,
              request.body.password,
            );
            setSessionCookie(reply, request, deps.config, sessionId);
            return { email: principal.email, role: principal.role };
          } catch (error) {
            failed = error instanceof AppError && error.code === 'invalid_credentials';
            throw error;
          } finally {
            // Only a wrong email or password keeps its places; a success (or storage failing) gives them back.
            if (!failed)
              await Promise.all([deps.failures.refund(addressKey), deps.failures.refund(accountKey)]);
          }
        } finally {
          release();
        }
      },
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
        if (session) await deps.accounts.logout(session);
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
