import { Type } from 'typebox';
import type { OAuthService } from '../../modules/oauth/index.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { App } from '../types.ts';
import {
  CreatedOAuthClient,
  CreateOAuthClient,
  OAuthClientSchema,
  OAuthGrantSchema,
} from './oauth.schemas.ts';

const IdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });
const session = { auth: 'session' as const, permission: 'account:read' as const };

/** The account's OAuth clients (registered, listed, deleted) and the apps it authorized (its grants). */
export function oauthClientRoutes(
  app: App,
  oauth: Pick<OAuthService, 'registerClient' | 'listClients' | 'deleteClient' | 'listGrants' | 'revokeGrant'>,
): void {
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
}
