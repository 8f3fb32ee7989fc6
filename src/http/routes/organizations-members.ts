import { Type } from 'typebox';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { App } from '../types.ts';
import {
  ChangeRole,
  Member,
  MemberParams,
  Organization,
  OrgParams,
  OrgRole,
  Transfer,
} from './organizations.schemas.ts';

const session = { auth: 'session' as const, permission: 'account:read' as const };
const tags = ['organizations'];

/** An organization's members: listed, their roles changed, removed (or leaving), ownership handed over. */
export function organizationMemberRoutes(
  app: App,
  orgs: AccountsService['organizations'],
  audit: AuditLog,
): void {
  app.get(
    '/api/organizations/:id/members',
    {
      config: session,
      schema: {
        operationId: 'listOrganizationMembers',
        tags,
        summary: 'The members of an organization and their roles',
        params: OrgParams,
        response: { 200: Type.Object({ data: Type.Array(Member) }), 404: ProblemSchema, ...authProblems },
      },
    },
    async (request) => ({ data: await orgs.members(request.principal!.userId, request.params.id) }),
  );

  app.patch(
    '/api/organizations/:id/members/:userId',
    {
      config: session,
      schema: {
        operationId: 'changeOrganizationMemberRole',
        tags,
        summary: "Change a member's role; their tokens act with it from the next request",
        params: MemberParams,
        body: ChangeRole,
        response: {
          200: Type.Object({ userId: Type.String(), role: OrgRole }),
          400: ProblemSchema,
          404: ProblemSchema,
          409: ProblemSchema,
          ...authProblems,
        },
      },
    },
    async (request) => {
      const { id, userId } = request.params;
      const changed = await orgs.setRole(request.principal!.userId, id, userId, request.body.role);
      await audit.record({
        action: 'organization.member_role_change',
        outcome: 'success',
        ...actorOf(request),
        target: `organization:${id}`,
        detail: { member: userId, from: changed.previous, to: changed.role },
      });
      return { userId, role: changed.role };
    },
  );

  app.delete(
    '/api/organizations/:id/members/:userId',
    {
      config: session,
      schema: {
        operationId: 'removeOrganizationMember',
        tags,
        summary: 'Remove a member (owner or admin), or leave (your own id); their tokens there are revoked',
        params: MemberParams,
        response: { 204: Type.Null(), 404: ProblemSchema, 409: ProblemSchema, ...authProblems },
      },
    },
    async (request, reply) => {
      const { id, userId } = request.params;
      const actor = request.principal!.userId;
      await orgs.removeMember(actor, id, userId);
      await audit.record({
        action: actor === userId ? 'organization.leave' : 'organization.member_remove',
        outcome: 'success',
        ...actorOf(request),
        target: `organization:${id}`,
        detail: { member: userId },
      });
      reply.code(204);
      return null;
    },
  );

  app.post(
    '/api/organizations/:id/transfer',
    {
      config: session,
      schema: {
        operationId: 'transferOrganization',
        tags,
        summary: 'Hand ownership to another member (owner only); you stay as an admin',
        params: OrgParams,
        body: Transfer,
        response: { 200: Organization, 404: ProblemSchema, 409: ProblemSchema, ...authProblems },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await orgs.transfer(request.principal!.userId, id, request.body.userId);
      await audit.record({
        action: 'organization.transfer',
        outcome: 'success',
        ...actorOf(request),
        target: `organization:${id}`,
        detail: { to: request.body.userId },
      });
      return result;
    },
  );
}
