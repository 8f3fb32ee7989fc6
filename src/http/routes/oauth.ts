import { isOAuthError, OAuthError, type OAuthService } from '../../modules/oauth/index.ts';
import type { OAuthRateLimit } from '../oauth-rate-limit.ts';
import type { RouteModule } from '../types.ts';
import { oauthClientRoutes } from './oauth-clients.ts';
import { oauthConsentRoutes } from './oauth-consent.ts';
import { oauthTokenRoutes } from './oauth-token.ts';
import { formType, isOAuthEndpoint, sendOAuthError } from './oauth-wire.ts';

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

/**
 * The OAuth 2.0 authorization server (docs/oauth.md): the token and revocation endpoints and the metadata
 * document (public, client-authenticated where the RFCs say), and the console's session-only routes behind
 * the consent page, the account's clients and the apps it authorized.
 */
export function oauthRoutes(deps: OAuthRouteDeps): RouteModule {
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

    oauthTokenRoutes(app, deps);
    oauthConsentRoutes(app, deps.oauth);
    oauthClientRoutes(app, deps.oauth);
  };
}
