import { Type } from 'typebox';

/** The organization routes' schemas: organizations, members, invitations and the bodies that change them. */

export const OrgRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('member'),
  Type.Literal('viewer'),
]);

export const Organization = Type.Object(
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

export const Member = Type.Object(
  {
    userId: Type.String(),
    email: Type.String(),
    role: OrgRole,
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationMember' },
);

export const Invitation = Type.Object(
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

export const CreatedInvitation = Type.Object({
  token: Type.String({ description: 'The invitation secret. Shown once, never again.' }),
  link: Type.Union([Type.String(), Type.Null()], {
    description: 'The console link carrying the secret (null: MERIDIAN_CONSOLE_URL is not set)',
  }),
  emailed: Type.Boolean({ description: 'The link was handed to the SMTP server (MERIDIAN_SMTP_URL)' }),
  details: Invitation,
});

export const OrgParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const MemberParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});
export const InvitationParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  invitationId: Type.String({ maxLength: 64 }),
});

export const CreateOrganization = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
export const UpdateOrganization = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    requireTwoFactor: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const ChangeRole = Type.Object({ role: OrgRole }, { additionalProperties: false });
export const Transfer = Type.Object(
  { userId: Type.String({ maxLength: 64, description: 'The member who becomes the owner' }) },
  { additionalProperties: false },
);
export const CreateInvitation = Type.Object(
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
export const AcceptInvitation = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
