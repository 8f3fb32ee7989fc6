import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { permissions } from '../../modules/accounts/index.ts';
import {
  type ClientCredentials,
  type OAuthService,
  isOAuthError,
  OAuthError,
} from '../../modules/oauth/index.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import type { OAuthLimitRefusal, OAuthRateLimit } from '../oauth-rate-limit.ts';

const param = (description: string, maxLength = 2048) =>
  Type.Optional(Type.String({ maxLength, description }));

const authorizationFields = {
  response_type: param('Must be `code`', 20),
  client_id: param('The registered client id (`oac_…`)', 64),
  redirect_uri: param('One of the client’s registered redirect URIs, exactly'),
  scope: param('Permissions, space-separated, e.g. `market:read predictions:read`', 500),
  state: param('Opaque value passed back on the redirect', 500),
  code_challenge: param('PKCE: BASE64URL(SHA-256(code_verifier))', 128),
  code_challenge_method: param('Must be `S256` (`plain` is refused)', 10),
};

const AuthorizationQuery = Type.Object(authorizationFields);

const OAuthClientSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.Union([Type.Literal('public'), Type.Literal('confidential')]),
    redirectUris: Type.Array(Type.String()),
    registeredBy: Type.Union([Type.Literal('operator'), Type.Literal('account')]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OAuthClient' },
);

const CreateOAuthClient = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    redirectUris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 10 }),
    confidential: Type.Optional(
      Type.Boolean({
        description: 'true: the client gets a secret (a server-side app); default false (public)',
      }),
    ),
  },
  { additionalProperties: false },
);

const CreatedOAuthClient = Type.Object({
  client: OAuthClientSchema,
  secret: Type.Union([Type.String(), Type.Null()], {
    description: 'The client secret of a confidential client. Shown once, never again: store it now.',
  }),
});

const OAuthGrantSchema = Type.Object(
  {
    id: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OAuthGrant' },
);

const AuthorizationCheck = Type.Union([
  Type.Object({
    outcome: Type.Literal('consent'),
    client: Type.Object({ id: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    redirectUri: Type.String(),
  }),
  Type.Object({
    outcome: Type.Literal('redirect'),
    redirectTo: Type.String({ description: 'An error the client must hear, on its redirect URI' }),
  }),
]);

const AuthorizationDecision = Type.Object(
  {
    ...authorizationFields,
    decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  },
  { additionalProperties: false },
);

const Redirect = Type.Object({ redirectTo: Type.String({ description: 'Where the browser goes next' }) });

const TokenRequest = Type.Object({
  grant_type: Type.String({ description: '`authorization_code` or `refresh_token`', maxLength: 50 }),
  code: param('authorization_code: the code from the redirect', 200),
  redirect_uri: param('authorization_code: the redirect URI of the authorization request'),
  code_verifier: param('authorization_code: the PKCE verifier (43 to 128 characters)', 128),
  refresh_token: param('refresh_token: the latest refresh token', 200),
  scope: param('refresh_token: narrower scopes than granted (optional)', 500),
  client_id: param('The client id (public clients; confidential ones may use HTTP Basic)', 64),
  client_secret: param('Confidential clients not using HTTP Basic', 200),
});

const RevokeRequest = Type.Object({
  token: Type.String({ maxLength: 200, description: 'An access or refresh token' }),
  token_type_hint: param('`access_token` or `refresh_token` (optional; the token’s prefix tells)', 20),
  client_id: param('The client id (public clients)', 64),
  client_secret: param('Confidential clients not using HTTP Basic', 200),
});

const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'An API token (`mrd_…`) limited to the granted scopes' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds the access token is valid' }),
  refresh_token: Type.String({ description: 'Single use: each refresh answers a new one (`mrr_…`)' }),
  scope: Type.String({ description: 'The granted permissions, space-separated' }),
});

const OAuthErrorBody = Type.Object(
  {
    error: Type.String({ description: 'RFC 6749 §5.2 error code' }),
    error_description: Type.String(),
  },
  { $id: 'OAuthErrorResponse' },
);

const ServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  response_types_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  authorization_response_iss_parameter_supported: Type.Boolean(),
  service_documentation: Type.String(),
});

const formType = 'application/x-www-form-urlencoded';
const IdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });
const session = { auth: 'session' as const, permission: 'account:read' as const };

export interface OAuthRouteDeps {
  /** The limits of the token and revocation endpoints (per client, per address). */
  rateLimit: OAuthRateLimit;
  oauth: Pick<
    OAuthService,
    | 'describeAuthorization'
    | 'decideAuthorization'
    | 'token'
    | 'revoke'
    | 'registerClient'
    | 'listClients'
    | 'deleteClient'
    | 'listGrants'
    | 'revokeGrant'
  >;
}

/** The issuer is this server as the client reached it (scheme and host; X-Forwarded-* with TRUST_PROXY). */
const issuerOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

const isOAuthEndpoint = (request: FastifyRequest) =>
  request.routeOptions.url === '/oauth/token' || request.routeOptions.url === '/oauth/revoke';

/** RFC 6749 §2.3.1: `Basic base64(form-encoded id ":" form-encoded secret)`. */
function basicCredentials(header: string | undefined): ClientCredentials['basic'] {
  const match = header ? /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new OAuthError('invalid_client', 'HTTP Basic credentials must be client_id:client_secret');
  const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'HTTP Basic credentials are not form-encoded');
  }
}

/** The form fields of a token or revocation request; a parameter given twice is refused (RFC 6749 §3.2). */
function formOf(request: FastifyRequest): Record<string, string> {
  if (!request.headers['content-type']?.toLowerCase().startsWith(formType))
    throw new OAuthError('invalid_request', `the body must be ${formType}`);
  if (request.validationError)
    throw new OAuthError('invalid_request', request.validationError.message.replace(/^body\/?/, ''));
  return request.body as Record<string, string>;
}

/** Answers an RFC 6749 §5.2 error (JSON, not a problem document: the RFC mandates this format there). */
function sendOAuthError(reply: FastifyReply, error: OAuthError, basicUsed: boolean) {
  if (error.status === 401)
    reply.header('www-authenticate', basicUsed ? 'Basic realm="meridian-oauth"' : 'Bearer realm="meridian"');
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.message });
}

/** 429 in the RFC 6749 §5.2 format, with Retry-After. */
function sendRateLimited(reply: FastifyReply, refusal: OAuthLimitRefusal) {
  const whose = refusal.limit === 'client' ? 'for this client' : 'from this address';
  return reply
    .code(429)
    .headers({
      'retry-after': String(refusal.retryAfterSeconds),
      'cache-control': 'no-store',
      pragma: 'no-cache',
    })
    .type('application/json; charset=utf-8')
    .send({
      error: 'temporarily_unavailable',
      error_description: `too many token requests ${whose}; retry in ${refusal.retryAfterSeconds} s`,
    });
}

/**
 * The OAuth 2.0 authorization server (docs/oauth.md): the token and revocation endpoints and the metadata
 * document (public, client-authenticated where the RFCs say), and the console's session-only routes behind
 * the consent page, the account's clients and the apps it authorized.
 */
export function oauthRoutes(deps: OAuthRouteDeps): RouteModule {
  const { oauth, rateLimit } = deps;

  /**
   * A token or revocation request: its client credentials and form read, charged to its rate limits, served,
   * and any OAuth error answered as RFC 6749 §5.2 says. A confidential client that authenticated (any answer
   * but invalid_client) gets its address place back.
   */
  async function clientRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    serve: (form: Record<string, string>, credentials: ClientCredentials) => Promise<void>,
  ): Promise<void> {
    let basicUsed = false;
    let confidential = false;
    try {
      const basic = basicCredentials(request.headers.authorization);
      basicUsed = basic !== undefined;
      const form = formOf(request);
      const refused = await rateLimit.charge(request, basic?.id ?? form.client_id);
      if (refused) {
        sendRateLimited(reply, refused);
        return;
      }
      confidential = basicUsed || form.client_secret !== undefined;
      await serve(form, { basic, clientId: form.client_id, clientSecret: form.client_secret });
      if (confidential) await rateLimit.refundAddress(request);
    } catch (error) {
      if (isOAuthError(error)) {
        if (confidential && error.error !== 'invalid_client') await rateLimit.refundAddress(request);
        sendOAuthError(reply, error, basicUsed);
        return;
      }
      throw error;
    }
  }

  return async (app) => {
    app.addContentTypeParser(formType, { parseAs: 'string' }, (_request, body, done) => {
      const params = new URLSearchParams(body as string);
      const fields: Record<string, string> = {};
      for (const [key, value] of params) {
        if (key in fields) return done(new OAuthError('invalid_request', `${key} is given more than once`));
        fields[key] = value;
      }
      done(null, fields);
    });
    // A form the parser refused is answered in the RFC's format too.
    app.setErrorHandler((error, request, reply) => {
      if (isOAuthError(error)) return sendOAuthError(reply, error, false);
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (isOAuthEndpoint(request) && status >= 400 && status < 500)
        return sendOAuthError(reply, new OAuthError('invalid_request', (error as Error).message), false);
      throw error;
    });

    app.get(
      '/.well-known/oauth-authorization-server',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'getOAuthServerMetadata',
          tags: ['oauth'],
          summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
          security: [],
          // 421: a Host the server does not answer to (the issuer is named after the Host).
          response: { 200: ServerMetadata, 421: ProblemSchema },
        },
      },
      async (request) => {
        const issuer = issuerOf(request);
        return {
          issuer,
          authorization_endpoint: `${issuer}/oauth/authorize`,
          token_endpoint: `${issuer}/oauth/token`,
          revocation_endpoint: `${issuer}/oauth/revoke`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          scopes_supported: [...permissions],
          authorization_response_iss_parameter_supported: true,
          service_documentation: `${issuer}/docs`,
        };
      },
    );

    app.post(
      '/oauth/token',
      {
        config: { auth: 'none' },
        attachValidation: true,
        schema: {
          operationId: 'oauthToken',
          tags: ['oauth'],
          summary: 'Exchange an authorization code (PKCE) or a refresh token for tokens (RFC 6749 §3.2)',
          security: [],
          body: Type.Unsafe<unknown>({ content: { [formType]: { schema: TokenRequest } } }),
          response: { 200: TokenResponse, 400: OAuthErrorBody, 401: OAuthErrorBody, 429: OAuthErrorBody },
        },
      },
      async (request, reply) => {
        await clientRequest(request, reply, async (form, credentials) => {
          const tokens = await oauth.token(form, credentials);
          reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(tokens);
        });
        return reply;
      },
    );

    app.post(
      '/oauth/revoke',
      {
        config: { auth: 'none' },
        attachValidation: true,
        schema: {
          operationId: 'oauthRevoke',
          tags: ['oauth'],
          summary: 'Revoke a token and its whole grant (RFC 7009); an unknown token is answered alike',
          security: [],
          body: Type.Unsafe<unknown>({ content: { [formType]: { schema: RevokeRequest } } }),
          response: {
            200: Type.Null({ description: 'Revoked, or not a live token' }),
            400: OAuthErrorBody,
            401: OAuthErrorBody,
            429: OAuthErrorBody,
          },
        },
      },
      async (request, reply) => {
        await clientRequest(request, reply, async (form, credentials) => {
          await oauth.revoke(form, credentials);
          reply.code(200).send(null);
        });
        return reply;
      },
    );

    app.get(
      '/api/oauth/authorize',
      {
        config: session,
        schema: {
          operationId: 'checkOAuthAuthorization',
          tags: ['oauth'],
          summary: 'Check an authorization request for the consent page: the client and the scopes asked',
          querystring: AuthorizationQuery,
          response: { 200: AuthorizationCheck, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request) => {
        const principal = request.principal!;
        return oauth.describeAuthorization(request.query, principal, issuerOf(request));
      },
    );

    app.post(
      '/api/oauth/authorize',
      {
        config: session,
        schema: {
          operationId: 'decideOAuthAuthorization',
          tags: ['oauth'],
          summary: 'Allow (issues a code) or deny an authorization request; answers where to redirect',
          body: AuthorizationDecision,
          response: { 200: Redirect, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const { decision, ...query } = request.body;
        reply.header('cache-control', 'no-store');
        return oauth.decideAuthorization(query, request.principal!, issuerOf(request), decision === 'allow');
      },
    );

    app.get(
      '/api/oauth/clients',
      {
        config: session,
        schema: {
          operationId: 'listOAuthClients',
          tags: ['oauth'],
          summary: 'The OAuth clients this account registered (never their secrets)',
          response: { 200: Type.Object({ data: Type.Array(OAuthClientSchema) }), ...authProblems },
        },
      },
      async (request) => ({ data: await oauth.listClients(request.principal!.userId) }),
    );

    app.post(
      '/api/oauth/clients',
      {
        config: session,
        schema: {
          operationId: 'createOAuthClient',
          tags: ['oauth'],
          summary: 'Register an OAuth client; a confidential client’s secret is in this response only',
          body: CreateOAuthClient,
          response: { 201: CreatedOAuthClient, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const created = await oauth.registerClient(request.principal!.userId, {
          name: request.body.name,
          redirectUris: request.body.redirectUris,
          confidential: request.body.confidential ?? false,
        });
        reply.code(201).header('cache-control', 'no-store');
        return created;
      },
    );

    app.delete(
      '/api/oauth/clients/:id',
      {
        config: session,
        schema: {
          operationId: 'deleteOAuthClient',
          tags: ['oauth'],
          summary: 'Delete a client this account registered; every token issued to it is revoked',
          params: IdParam,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await oauth.deleteClient(request.principal!.userId, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/oauth/grants',
      {
        config: session,
        schema: {
          operationId: 'listOAuthGrants',
          tags: ['oauth'],
          summary: 'The apps this account authorized, with the scopes each holds',
          response: { 200: Type.Object({ data: Type.Array(OAuthGrantSchema) }), ...authProblems },
        },
      },
      async (request) => ({ data: await oauth.listGrants(request.principal!.userId) }),
    );

    app.delete(
      '/api/oauth/grants/:id',
      {
        config: session,
        schema: {
          operationId: 'revokeOAuthGrant',
          tags: ['oauth'],
          summary: 'Withdraw an app’s access: its access and refresh tokens are revoked at once',
          params: IdParam,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await oauth.revokeGrant(request.principal!.userId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
