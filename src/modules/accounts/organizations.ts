import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import { type OrgRole, isOrgRole, isPlan, managesOrganization } from './permissions.ts';
import {
  type InvitationView,
  type MemberView,
  type OrganizationView,
  presentInvitation,
  presentMember,
  presentOrganization,
} from './present.ts';
import type { OrgAccess } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import { sha256Hex } from './token-format.ts';

export interface OrganizationsDeps {
  repo: AccountsRepository;
  clock: Clock;
  twoFactorOn(userId: string): Promise<boolean>;
  /** A member's role or membership changed: their cached tokens go, here and on every replica. */
  userChanged(userId: string): void;
  /** An organization's two-factor rule changed: its cached tokens go, here and on every replica. */
  orgChanged(orgId: string): void;
  /** A token was revoked (a removed member's). */
  revoked(tokenHash: string): void;
}

const invitationTtlMs = 7 * 86_400_000;
const maxInvitationTtlMs = 30 * 86_400_000;
const invitableRoles: readonly OrgRole[] = ['admin', 'member', 'viewer'];
/** Shared organizations one account may own: each has its own rate-limit window, so the count is bounded. */
export const MAX_OWNED_ORGANIZATIONS = 10;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An invitation's secret: `mi_` and 32 base62 characters; only its hash is stored. */
const newInvitationSecret = () => `mi_${randomBase62(32)}`;

const invalid = (pointer: string, message: string) =>
  new AppError('validation_failed', `${pointer.split('/').pop()} ${message}`, {
    errors: [{ pointer, message }],
  });

/**
 * Organizations as their members manage them: create, rename, require two-factor sign-in; members and their
 * roles (the last owner stays), leaving, ownership transfer; invitations by link (the secret shown once).
 * Another organization answers like a missing one, so ids cannot be probed.
 */
export function createOrganizations(deps: OrganizationsDeps) {
  const { repo, clock } = deps;

  async function membership(userId: string, orgId: string): Promise<OrgAccess> {
    const access = await repo.findMembership(orgId, userId);
    if (!access) throw new AppError('not_found', `no organization with id ${orgId}`);
    return access;
  }

  async function managed(userId: string, orgId: string): Promise<OrgAccess> {
    const access = await membership(userId, orgId);
    if (!managesOrganization(access.role))
      throw new AppError('forbidden', `only an owner or admin manages organization ${orgId}`);
    return access;
  }

  const refusePersonal = (access: OrgAccess, what: string) => {
    if (access.org.personal)
      throw new AppError('conflict', `a personal organization ${what}; create an organization to share`);
  };

  async function targetMember(orgId: string, userId: string): Promise<OrgAccess> {
    const access = await repo.findMembership(orgId, userId);
    if (!access) throw new AppError('not_found', `no member ${userId} in organization ${orgId}`);
    return access;
  }

  async function create(userId: string, input: { name: string }): Promise<OrganizationView> {
    const name = input.name.trim();
    if (!name || name.length > 100) throw invalid('/body/name', 'must have 1 to 100 characters');
    const owned = (await repo.listMemberships(userId)).filter((m) => m.role === 'owner' && !m.org.personal);
    if (owned.length >= MAX_OWNED_ORGANIZATIONS)
      throw new AppError(
        'conflict',
        `an account owns at most ${MAX_OWNED_ORGANIZATIONS} organizations besides its personal one; transfer one first`,
      );
    const org = {
      id: newId('org'),
      name,
      plan: 'standard',
      rate_limit_override: null,
      require_2fa: false,
      personal: false,
      created_at: clock.now(),
    };
    await repo.insertOrganization(org, userId);
    return presentOrganization({ org, role: 'owner' });
  }

  async function update(
    userId: string,
    orgId: string,
    patch: { name?: string; requireTwoFactor?: boolean },
  ): Promise<OrganizationView> {
    const access = await managed(userId, orgId);
    const name = patch.name?.trim();
    if (name !== undefined && (!name || name.length > 100))
      throw invalid('/body/name', 'must have 1 to 100 characters');
    // Whoever turns the rule on must meet it, or they would lock themselves out with it.
    if (patch.requireTwoFactor && !(await deps.twoFactorOn(userId)))
      throw new AppError(
        'conflict',
        'turn on two-factor sign-in for your own account before requiring it of the organization',
      );
    await repo.updateOrganization(orgId, { name, require_2fa: patch.requireTwoFactor });
    if (patch.requireTwoFactor !== undefined) deps.orgChanged(orgId);
    return presentOrganization({
      role: access.role,
      org: {
        ...access.org,
        name: name ?? access.org.name,
        require_2fa: patch.requireTwoFactor ?? access.org.require_2fa,
      },
    });
  }

  async function members(userId: string, orgId: string): Promise<MemberView[]> {
    await membership(userId, orgId);
    return (await repo.listMembers(orgId)).map(presentMember);
  }

  /** The last owner can be neither demoted nor removed: an organization always has one. */
  async function keepAnOwner(orgId: string, target: OrgAccess) {
    if (target.role === 'owner' && (await repo.countOwners(orgId)) <= 1)
      throw new AppError('conflict', 'the last owner cannot leave or be demoted; transfer ownership first');
  }

  async function setRole(actorId: string, orgId: string, memberId: string, role: string) {
    if (!isOrgRole(role)) throw invalid('/body/role', 'must be one of owner, admin, member, viewer');
    const actor = await managed(actorId, orgId);
    refusePersonal(actor, 'has one member, its owner');
    const target = await targetMember(orgId, memberId);
    if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner')
      throw new AppError('forbidden', 'only an owner grants or takes away ownership');
    if (role !== 'owner') await keepAnOwner(orgId, target);
    await repo.setMemberRole(orgId, memberId, role);
    deps.userChanged(memberId);
    return { previous: target.role, role };
  }

  /** Removes a member (an owner or admin), or leaves (any member, `memberId` their own). */
  async function removeMember(actorId: string, orgId: string, memberId: string) {
    const actor = await membership(actorId, orgId);
    refusePersonal(actor, 'cannot be left');
    const target = actorId === memberId ? actor : await targetMember(orgId, memberId);
    if (actorId !== memberId) {
      if (!managesOrganization(actor.role))
        throw new AppError('forbidden', `only an owner or admin removes members of organization ${orgId}`);
      if (target.role === 'owner' && actor.role !== 'owner')
        throw new AppError('forbidden', 'only an owner removes an owner');
    }
    await keepAnOwner(orgId, target);
    await repo.deleteMembership(orgId, memberId);
    // The organization owns the member's tokens there: they are revoked, not left for a later re-invitation.
    for (const hash of await repo.revokeMemberTokens(orgId, memberId, clock.now())) deps.revoked(hash);
    deps.userChanged(memberId);
    return { role: target.role };
  }

  async function transfer(actorId: string, orgId: string, toUserId: string) {
    const actor = await membership(actorId, orgId);
    if (actor.role !== 'owner') throw new AppError('forbidden', 'only an owner transfers ownership');
    refusePersonal(actor, 'stays with its user');
    if (toUserId === actorId) throw new AppError('conflict', 'you own this organization already');
    await targetMember(orgId, toUserId);
    await repo.transferOwnership(orgId, actorId, toUserId);
    deps.userChanged(actorId);
    deps.userChanged(toUserId);
    return presentOrganization({ org: actor.org, role: 'admin' });
  }

  async function invite(
    actorId: string,
    orgId: string,
    input: { role: string; email?: string | null; expiresInMs?: number },
  ): Promise<{ token: string; invitation: InvitationView; orgName: string }> {
    const actor = await managed(actorId, orgId);
    refusePersonal(actor, 'takes no invitations');
    if (!invitableRoles.includes(input.role as OrgRole))
      throw invalid('/body/role', 'must be one of admin, member, viewer (ownership is transferred)');
    const email = input.email?.trim().toLowerCase() || null;
    if (email !== null && !emailPattern.test(email)) throw invalid('/body/email', 'must be an email address');
    const ttl = input.expiresInMs ?? invitationTtlMs;
    if (ttl <= 0 || ttl > maxInvitationTtlMs) throw invalid('/body/expiresIn', 'must be at most 30 days');
    const token = newInvitationSecret();
    const now = clock.now();
    const row = {
      id: newId('inv'),
      org_id: orgId,
      role: input.role,
      token_hash: sha256Hex(token),
      email,
      created_by: actorId,
      created_at: now,
      expires_at: now + ttl,
      accepted_at: null,
      accepted_by: null,
    };
    await repo.insertInvitation(row);
    return { token, invitation: presentInvitation(row), orgName: actor.org.name };
  }

  async function invitations(actorId: string, orgId: string): Promise<InvitationView[]> {
    await managed(actorId, orgId);
    return (await repo.listInvitations(orgId)).map(presentInvitation);
  }

  async function revokeInvitation(actorId: string, orgId: string, id: string) {
    await managed(actorId, orgId);
    if (!(await repo.deleteInvitation(orgId, id)))
      throw new AppError('not_found', `no invitation with id ${id}`);
  }

  /** Joins the invitation's organization with its role; a link works once, before it expires. */
  async function accept(userId: string, email: string, token: string) {
    const found = await repo.findInvitationByHash(sha256Hex(token.trim()));
    if (!found) throw new AppError('not_found', 'the invitation is not known');
    if (found.accepted_at !== null) throw new AppError('conflict', 'the invitation was used already');
    if (found.expires_at <= clock.now()) throw new AppError('conflict', 'the invitation has expired');
    if (found.email !== null && found.email !== email.toLowerCase())
      throw new AppError('forbidden', 'the invitation is for another email address');
    if (await repo.findMembership(found.org_id, userId))
      throw new AppError('conflict', 'you are a member of this organization already');
    const accepted = await repo.acceptInvitation(found.id, {
      org_id: found.org_id,
      user_id: userId,
      role: found.role,
      created_at: clock.now(),
    });
    if (!accepted) throw new AppError('conflict', 'the invitation was used already');
    return {
      invitationId: found.id,
      organization: presentOrganization((await repo.findMembership(found.org_id, userId))!),
    };
  }

  /** The operator's plan change (`meridian orgs set-plan`): a personal organization's is its user's too. */
  async function setPlan(orgId: string, plan: string, rateLimit?: number | null) {
    if (!isPlan(plan)) throw invalid('/plan', 'must be one of standard, pro');
    const org = await repo.findOrganization(orgId);
    if (!org) throw new AppError('not_found', `no organization with id ${orgId}`);
    const patch = { plan, rate_limit_override: rateLimit ?? null };
    if (org.personal) {
      await repo.updateUser(orgId, patch);
      deps.userChanged(orgId);
    } else {
      await repo.updateOrganization(orgId, patch);
      deps.orgChanged(orgId);
    }
    return { ...org, ...patch };
  }

  return {
    setPlan,
    list: async (userId: string) => (await repo.listMemberships(userId)).map(presentOrganization),
    get: async (userId: string, orgId: string) => presentOrganization(await membership(userId, orgId)),
    create,
    update,
    members,
    setRole,
    removeMember,
    transfer,
    invite,
    invitations,
    revokeInvitation,
    accept,
  };
}
