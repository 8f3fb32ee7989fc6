import { Type } from 'typebox';
import type { AccountsService } from '../../modules/accounts/index.ts';
import type { AuditLog } from '../../modules/audit/index.ts';
import { parseDuration } from '../../modules/identifiers/index.ts';
import { AppError } from '../../shared/errors.ts';
import { actorOf } from '../audit.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const OrgRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('member'),
  Type.Literal('viewer'),
]);

const Organization = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: Type.Union([Type.Literal('standard'), Type.Literal('pro')]),
    personal: Type.Boolean({ description: "The user's own organization: one member, no invitations" }),
    requireTwoFactor: Type.Boolean({ description: 'Members must have two-factor sign-in on to act in it' }),
    role: OrgRole,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Organization' },
);

const Member = Type.Object(
  {
    userId: Type.String(),
    email: Type.String(),
    role: OrgRole,
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationMember' },
);

const Invitation = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    role: OrgRole,
    email: Type.Union([Type.String(), Type.Null()], { description: 'null: anyone with the link may accept' }),
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Invitation' },
);

const CreatedInvitation = Type.Object({
  token: Type.String({ description: 'The invitation secret. Shown once, never again.' }),
  link: Type.Union([Type.String(), Type.Null()], {
    description: 'The console link carrying the secret (null: MERIDIAN_CONSOLE_URL is not set)',
  }),
  emailed: Type.Boolean({ description: 'The link was handed to the SMTP server (MERIDIAN_SMTP_URL)' }),
  details: Invitation,
});

const OrgParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const MemberParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});
const InvitationParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  invitationId: Type.String({ maxLength: 64 }),
});

const CreateOrganization = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
const UpdateOrganization = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    requireTwoFactor: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const ChangeRole = Type.Object({ role: OrgRole }, { additionalProperties: false });
const Transfer = Type.Object(
  { userId: Type.String({ maxLength: 64, description: 'The member who becomes the owner' }) },
  { additionalProperties: false },
);
const CreateInvitation = Type.Object(
  {
    role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]),
    email: Type.Optional(
      Type.String({ maxLength: 254, description: 'Only this address may accept; the link is emailed to it' }),
    ),
    expiresIn: Type.Optional(
      Type.String({ maxLength: 10, description: 'Lifetime such as 7d (default) or 48h; at most 30d' }),
    ),
  },
  { additionalProperties: false },
);
const AcceptInvitation = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

const session = { auth: 'session' as const, permission: 'account:read' as const };
const tags = ['organizations'];

/** Sends an invitation link by email (unset: no SMTP server is configured). */
export type InvitationMailer = (to: string, organization: string, link: string) => Promise<boolean>;

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
  const linkOf = (token: string) =>
    deps.consoleUrl ? `${deps.consoleUrl.replace(/\/+$/, '')}/organization#invitation=${token}` : null;

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
  };
}
