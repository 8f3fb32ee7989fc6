import cookie from '@fastify/cookie';
import { Type } from 'typebox';
import type { Container } from '../../app/container.ts';
import { AppError } from '../../shared/errors.ts';
import { sessionCookie } from '../plugins/auth.ts';
import { ProblemSchema } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const Login = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

/**
 * Console sign-in. The session lives in an HttpOnly, SameSite=Strict cookie; state-changing requests with
 * it must come from the console's own origin (see the auth plugin), so other sites cannot ride on it.
 */
export function authRoutes(container: Container): RouteModule {
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
            429: ProblemSchema,
          },
        },
      },
      async (request, reply) => {
        const limiterKey = `login:${request.ip}`;
        if ((await container.limiter.count(limiterKey, 60_000)) >= container.config.authFailureLimit) {
          throw new AppError('auth_rate_limited', 'too many failed sign-ins from this address', {
            headers: { 'retry-after': '60' },
          });
        }
        try {
          const { sessionId, principal } = await container.accounts.login(
            request.body.email,
            request.body.password,
          );
          reply.setCookie(sessionCookie, sessionId, {
            httpOnly: true,
            sameSite: 'strict',
            secure: container.config.cookieSecure,
            path: '/',
            maxAge: container.config.sessionTtlHours * 3600,
          });
          return { email: principal.email, role: principal.role };
        } catch (error) {
          if (error instanceof AppError && error.code === 'invalid_credentials') {
            await container.limiter.consume(limiterKey, container.config.authFailureLimit, 60_000);
          }
          throw error;
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
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        const session = request.cookies[sessionCookie];
        if (session) await container.accounts.logout(session);
        reply.clearCookie(sessionCookie, { path: '/' });
        return reply.code(204).send(null);
      },
    );
  };
}
