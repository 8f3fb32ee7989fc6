import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { permissions } from '../../modules/accounts/index.ts';
import { type ClientCredentials, isOAuthError, type OAuthService } from '../../modules/oauth/index.ts';
import type { OAuthRateLimit } from '../oauth-rate-limit.ts';
import { ProblemSchema } from '../schemas.ts';
import type { App } from '../types.ts';
import {
  OAuthErrorBody,
  RevokeRequest,
  ServerMetadata,
  TokenRequest,
  TokenResponse,
} from './oauth.schemas.ts';
import {
  basicCredentials,
  formOf,
  formType,
  issuerOf,
  sendOAuthError,
  sendRateLimited,
} from './oauth-wire.ts';

export interface OAuthTokenRouteDeps {
  /** The limits of the token and revocation endpoints (per client, per address). */
  rateLimit: OAuthRateLimit;
  oauth: Pick<OAuthService, 'token' | 'revoke'>;
}

/**
 * The public OAuth endpoints: the metadata document, and the token and revocation endpoints
 * (client-authenticated where the RFCs say).
 */
export function oauthTokenRoutes(app: App, deps: OAuthTokenRouteDeps): void {
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
}
