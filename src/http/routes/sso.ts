import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config/env.ts';
import {
  type AccountsService,
  type SsoProvider,
  SsoRefusal,
  type SsoRefusalReason,
} from '../../modules/accounts/index.ts';
import { ProblemSchema } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { secureCookie, setSessionCookie } from './auth.ts';

export interface SsoRouteDeps {
  config: Pick<
    Config,
    'cookieSecure' | 'sessionTtlHours' | 'passwordSignIn' | 'consoleUrl' | 'oidcClientSecret'
  >;
  accounts: Pick<AccountsService, 'signInWithIdentity'>;
  /** The OpenID Connect provider (undefined: single sign-on is not configured). */
  sso?: SsoProvider;
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
}

/** The signed cookie that carries a sign-in's state, nonce and PKCE verifier from start to callback. */
const flowCookie = 'meridian_sso';
const flowPath = '/auth/oidc';
const flowTtlS = 600;

interface Flow {
  state: string;
  nonce: string;
  codeVerifier: string;
  next: string;
  expiresAt: number;
}

const SignInMethods = Type.Object(
  {
    password: Type.Boolean({ description: 'Whether POST /auth/login accepts an email and password.' }),
    sso: Type.Union(
      [
        Type.Object({
          name: Type.String({ description: 'The provider, for the "Sign in with …" button.' }),
          available: Type.Boolean({
            description: "False while the provider's discovery document could not be read (see /readyz).",
          }),
          message: Type.Optional(Type.String({ description: 'Why it is not available, for people.' })),
          startUrl: Type.String({ description: 'Where the browser goes to sign in (GET, a redirect).' }),
        }),
        Type.Null(),
      ],
      { description: 'Single sign-on with an OpenID Connect provider; null when not configured.' },
    ),
  },
  { additionalProperties: false },
);

/** A path on this server in URL characters only (no control character can reach the Location header). */
const localPath = /^\/(?![/\\])[\w\-.~!$&'()*+,;=:@%/?#]*$/;

/** Only same-site paths are followed after sign-in (never an absolute URL put in the link). */
const safeNext = (next: unknown): string => (typeof next === 'string' && localPath.test(next) ? next : '/');

/**
 * Single sign-on to the console (docs/sso.md): GET /auth/methods tells the sign-in page what to show;
 * GET /auth/oidc/start sends the browser to the provider; GET /auth/oidc/callback takes its answer, opens a
 * session like a password sign-in, and sends the browser to the console. Every failure lands on the sign-in
 * page with `?sso_error=<reason>`, never on an error document.
 */
export function ssoRoutes(deps: SsoRouteDeps): RouteModule {
  const { config, sso } = deps;
  // A key of its own for the flow cookie, derived from the client secret (the same on every replica).
  const cookieKey = createHmac('sha256', config.oidcClientSecret ?? 'single sign-on is off')
    .update('meridian single sign-on flow cookie')
    .digest('base64url');

  const backToSignIn = (reply: FastifyReply, reason: SsoRefusalReason) =>
    reply.redirect(`/sign-in?sso_error=${reason}`, 302);

  const redirectUri = (request: FastifyRequest) =>
    `${config.consoleUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`}${flowPath}/callback`;

  const clearFlow = (reply: FastifyReply, request: FastifyRequest) =>
    reply.clearCookie(flowCookie, {
      path: flowPath,
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie(config, request),
    });

  function flowOf(request: FastifyRequest): Flow | SsoRefusalReason {
    const raw = request.cookies[flowCookie];
    if (!raw) return 'expired';
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || unsigned.value === null) return 'failed';
    try {
      const flow = JSON.parse(unsigned.value) as Flow;
      return flow.expiresAt > Date.now() ? flow : 'expired';
    } catch {
      return 'failed';
    }
  }

  return async (app) => {
    await app.register(cookie, { secret: cookieKey });

    app.get(
      '/auth/methods',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'getSignInMethods',
          tags: ['auth'],
          summary: 'How to sign in to the console: password, single sign-on, or both',
          security: [],
          // 400: a request line that does not parse, as on every route (the only refusal this one has).
          response: { 200: SignInMethods, 400: ProblemSchema },
        },
      },
      async () => {
        const state = sso?.availability();
        return {
          password: config.passwordSignIn,
          sso:
            sso && state
              ? {
                  name: sso.name,
                  available: state.available,
                  // The operator's reason (with addresses) is in /readyz and the log; people get a sentence.
                  ...(state.available
                    ? {}
                    : { message: `${sso.name} cannot be reached right now; try again in a minute.` }),
                  startUrl: `${flowPath}/start`,
                }
              : null,
        };
      },
    );

    app.get(
      `${flowPath}/start`,
      {
        config: { auth: 'none' },
        schema: {
          hide: true,
          querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 512 })) }),
        },
      },
      async (request, reply) => {
        if (!sso) return backToSignIn(reply, 'unavailable');
        try {
          const challenge = await sso.begin(redirectUri(request));
          const flow: Flow = {
            state: challenge.state,
            nonce: challenge.nonce,
            codeVerifier: challenge.codeVerifier,
            next: safeNext(request.query.next),
            expiresAt: Date.now() + flowTtlS * 1000,
          };
          // SameSite=Lax: the provider's redirect back is a cross-site navigation, which Strict would not carry.
          reply.setCookie(flowCookie, JSON.stringify(flow), {
            signed: true,
            httpOnly: true,
            sameSite: 'lax',
            secure: secureCookie(config, request),
            path: flowPath,
            maxAge: flowTtlS,
          });
          return reply.redirect(challenge.authorizationUrl, 302);
        } catch (error) {
          if (!(error instanceof SsoRefusal)) throw error;
          deps.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on could not start');
          return backToSignIn(reply, error.reason);
        }
      },
    );

    app.get(
      `${flowPath}/callback`,
      {
        config: { auth: 'none' },
        // Whatever the provider adds (code, state, iss, session_state, error…) is read from the raw URL.
        schema: { hide: true },
      },
      async (request, reply) => {
        const flow = flowOf(request);
        clearFlow(reply, request);
        try {
          if (!sso) throw new SsoRefusal('unavailable', 'single sign-on is not configured');
          if (typeof flow === 'string')
            throw new SsoRefusal(flow, 'the sign-in cookie is missing, expired or not ours');
          const callbackUrl = new URL(redirectUri(request));
          callbackUrl.search = new URL(request.url, 'http://callback').search;
          const identity = await sso.finish(callbackUrl, flow);
          const { sessionId, outcome, principal } = await deps.accounts.signInWithIdentity(identity);
          // audit: single sign-on succeeded (principal.userId, outcome: signed_in | created | linked)
          deps.log.info({ userId: principal.userId, outcome }, 'single sign-on');
          setSessionCookie(reply, request, config, sessionId);
          return reply.redirect(flow.next, 302);
        } catch (error) {
          if (!(error instanceof SsoRefusal)) {
            deps.log.warn(
              { error: error instanceof Error ? error.message : String(error) },
              'single sign-on failed',
            );
            return backToSignIn(reply, 'failed');
          }
          // audit: single sign-on refused (error.reason; error.detail names the email or domain)
          deps.log.warn({ reason: error.reason, detail: error.detail }, 'single sign-on refused');
          return backToSignIn(reply, error.reason);
        }
      },
    );
  };
}
