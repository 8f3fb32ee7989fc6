import { Type } from 'typebox';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { type InvitationMailer, organizationInvitationRoutes } from './organizations-invitations.ts';
import { organizationMemberRoutes } from './organizations-members.ts';
import { CreateOrganization, Organization, OrgParams, UpdateOrganization } from './organizations.schemas.ts';

export type { InvitationMailer } from './organizations-invitations.ts';

const session = { auth: 'session' as const, permission: 'account:read' as const };
const tags = ['organizations'];

export interface OrganizationRouteDeps {
  accounts: Pick<AccountsService, 'organizations'>;
  audit: AuditLog;
  consoleUrl?: string;
  mailInvitation?: InvitationMailer;
}

/**
 * Organizations, their members and invitations (console session only, like token management: an API token
 * acts in its organization but never manages it).
 */
export function organizationRoutes(deps: OrganizationRouteDeps): RouteModule {
  const orgs = deps.accounts.organizations;
  const { audit } = deps;

  return async (app) => {
    app.get(
      '/api/organizations',
      {
        config: session,
        schema: {
          operationId: 'listOrganizations',
          tags,
          summary: 'The organizations you belong to, your personal one first',
          response: { 200: Type.Object({ data: Type.Array(Organization) }), ...authProblems },
        },
      },
      async (request) => ({ data: await orgs.list(request.principal!.userId) }),
    );

    app.post(
      '/api/organizations',
      {
        config: session,
        schema: {
          operationId: 'createOrganization',
          tags,
          summary: 'Create an organization; you are its owner',
          body: CreateOrganization,
          response: { 201: Organization, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const created = await orgs.create(request.principal!.userId, request.body);
        await audit.record({
          action: 'organization.create',
          outcome: 'success',
          ...actorOf(request),
          target: `organization:${created.id}`,
          detail: { name: created.name },
        });
        reply.code(201);
        return created;
      },
    );

    app.get(
      '/api/organizations/:id',
      {
        config: session,
        schema: {
          operationId: 'getOrganization',
          tags,
          summary: 'One organization you belong to (another answers 404)',
          params: OrgParams,
          response: { 200: Organization, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => orgs.get(request.principal!.userId, request.params.id),
    );

    app.patch(
      '/api/organizations/:id',
      {
        config: session,
        schema: {
          operationId: 'updateOrganization',
          tags,
          summary: 'Rename an organization or require two-factor sign-in of its members (owner or admin)',
          params: OrgParams,
          body: UpdateOrganization,
          response: {
            200: Organization,
            400: ProblemSchema,
            404: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request) => {
        const updated = await orgs.update(request.principal!.userId, request.params.id, request.body);
        await audit.record({
          action: 'organization.update',
          outcome: 'success',
          ...actorOf(request),
          target: `organization:${updated.id}`,
          detail: {
            ...(request.body.name !== undefined ? { name: updated.name } : {}),
            ...(request.body.requireTwoFactor !== undefined
              ? { requireTwoFactor: request.body.requireTwoFactor }
              : {}),
          },
        });
        return updated;
      },
    );

    organizationMemberRoutes(app, orgs, audit);
    organizationInvitationRoutes(app, {
      orgs,
      audit,
      consoleUrl: deps.consoleUrl,
      mailInvitation: deps.mailInvitation,
    });
  };
}
