import { Type } from 'typebox';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import { parseDuration } from '../../modules/identifiers/index.ts';
import { AppError } from '../../shared/errors.ts';
import { actorOf } from '../audit.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { App } from '../types.ts';
import {
  AcceptInvitation,
  CreatedInvitation,
  CreateInvitation,
  Invitation,
  InvitationParams,
  Organization,
  OrgParams,
} from './organizations.schemas.ts';

const session = { auth: 'session' as const, permission: 'account:read' as const };
const tags = ['organizations'];

/** Sends an invitation link by email (unset: no SMTP server is configured). */
export type InvitationMailer = (to: string, organization: string, link: string) => Promise<boolean>;

export interface InvitationRouteDeps {
  orgs: AccountsService['organizations'];
  audit: AuditLog;
  consoleUrl?: string;
  mailInvitation?: InvitationMailer;
}

/** Invitations to an organization: made (a link, emailed when asked), listed, withdrawn, accepted. */
export function organizationInvitationRoutes(app: App, deps: InvitationRouteDeps): void {
  const { orgs, audit } = deps;
  const linkOf = (token: string) =>
    deps.consoleUrl ? `${deps.consoleUrl.replace(/\/+$/, '')}/organization#invitation=${token}` : null;

  app.post(
    '/api/organizations/:id/invitations',
    {
      config: session,
      schema: {
        operationId: 'createInvitation',
        tags,
        summary: 'Invite someone by link (and by email when given); the secret is in this response only',
        params: OrgParams,
        body: CreateInvitation,
        response: {
          201: CreatedInvitation,
          400: ProblemSchema,
          404: ProblemSchema,
          409: ProblemSchema,
          ...authProblems,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      let expiresInMs: number | undefined;
      if (request.body.expiresIn !== undefined) {
        expiresInMs = parseDuration(request.body.expiresIn);
        if (expiresInMs === undefined)
          throw new AppError('validation_failed', 'expiresIn must look like 7d or 48h', {
            errors: [{ pointer: '/body/expiresIn', message: 'must look like 7d or 48h' }],
          });
      }
      const created = await orgs.invite(request.principal!.userId, id, { ...request.body, expiresInMs });
      const link = linkOf(created.token);
      const to = created.invitation.email;
      // A failed email leaves the invitation valid: the link in this answer still works.
      const emailed =
        to !== null && link !== null && deps.mailInvitation
          ? await deps.mailInvitation(to, created.orgName, link).catch(() => false)
          : false;
      await audit.record({
        action: 'organization.invite',
        outcome: 'success',
        ...actorOf(request),
        target: `invitation:${created.invitation.id}`,
        detail: { organization: id, role: created.invitation.role, email: to, emailed },
      });
      reply.code(201).header('cache-control', 'no-store');
      return { token: created.token, link, emailed, details: created.invitation };
    },
  );

  app.get(
    '/api/organizations/:id/invitations',
    {
      config: session,
      schema: {
        operationId: 'listInvitations',
        tags,
        summary: 'Invitations not yet accepted (owner or admin; never their secrets)',
        params: OrgParams,
        response: {
          200: Type.Object({ data: Type.Array(Invitation) }),
          404: ProblemSchema,
          ...authProblems,
        },
      },
    },
    async (request) => ({ data: await orgs.invitations(request.principal!.userId, request.params.id) }),
  );

  app.delete(
    '/api/organizations/:id/invitations/:invitationId',
    {
      config: session,
      schema: {
        operationId: 'revokeInvitation',
        tags,
        summary: 'Withdraw an invitation: its link stops working',
        params: InvitationParams,
        response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
      },
    },
    async (request, reply) => {
      const { id, invitationId } = request.params;
      await orgs.revokeInvitation(request.principal!.userId, id, invitationId);
      await audit.record({
        action: 'organization.invitation_revoke',
        outcome: 'success',
        ...actorOf(request),
        target: `invitation:${invitationId}`,
        detail: { organization: id },
      });
      reply.code(204);
      return null;
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      config: session,
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: "Join an organization with an invitation's secret (once, before it expires)",
        body: AcceptInvitation,
        response: { 200: Organization, 404: ProblemSchema, 409: ProblemSchema, ...authProblems },
      },
    },
    async (request) => {
      const { userId, email } = request.principal!;
      const { invitationId, organization } = await orgs.accept(userId, email, request.body.token);
      await audit.record({
        action: 'organization.join',
        outcome: 'success',
        ...actorOf(request),
        target: `organization:${organization.id}`,
        detail: { invitation: invitationId, role: organization.role },
      });
      return organization;
    },
  );
}
