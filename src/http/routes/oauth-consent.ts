import type { OAuthService } from '../../modules/oauth/index.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { App } from '../types.ts';
import { AuthorizationCheck, AuthorizationDecision, AuthorizationQuery, Redirect } from './oauth.schemas.ts';
import { issuerOf } from './oauth-wire.ts';

const session = { auth: 'session' as const, permission: 'account:read' as const };

/** The console's consent page: an authorization request checked, then allowed (a code) or denied. */
export function oauthConsentRoutes(
  app: App,
  oauth: Pick<OAuthService, 'describeAuthorization' | 'decideAuthorization'>,
): void {
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
}
