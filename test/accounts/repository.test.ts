import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type AccountsRepository,
  createAccountsService,
  createKyselyAccountsRepository,
  createMemoryAccountsRepository,
} from '../../src/modules/accounts/index.ts';
import type { AccountsTables, ApiToken, UsersTable } from '../../src/modules/accounts/tables.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { AppError } from '../../src/shared/errors.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase, repositoryKinds } from '../harness/db.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const user = (id: string, over: Partial<UsersTable> = {}): UsersTable => ({
  id,
  email: `${id}@example.com`,
  password_hash: `hash-${id}`,
  role: 'member',
  plan: 'standard',
  rate_limit_override: null,
  created_at: T0,
  ...over,
});

const token = (id: string, userId: string, over: Partial<ApiToken> = {}): ApiToken => ({
  id,
  user_id: userId,
  org_id: userId,
  name: `name-${id}`,
  token_hash: `hash-of-${id}`,
  start: `mr_${id.slice(0, 4)}`,
  permissions: null,
  created_at: T0,
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  rotated_to: null,
  grant_id: null,
  ...over,
});

/**
 * The accounts store's contract, on its in-memory twin and on every database backend. One store per kind;
 * each test uses its own user ids and emails, so they share it safely.
 */
describe.each(repositoryKinds())('accounts repository on %s', (kind) => {
  let handle: DbHandle | undefined;
  let repo: AccountsRepository;

  beforeAll(async () => {
    if (kind === 'memory') {
      repo = createMemoryAccountsRepository();
      return;
    }
    handle = await openTestDatabase(kind);
    repo = createKyselyAccountsRepository(tablesOf<AccountsTables>(handle.db));
  });
  afterAll(() => handle?.close());

  it('stores users and finds them by exact email and by id, as copies with numbers and nulls intact', async () => {
    // The first case of the suite: the store is fresh.
    expect(await repo.countUsers()).toBe(0);
    const ada = user('usr_ada', { rate_limit_override: 900, created_at: T0 + 12_345 });
    await repo.insertUser(ada);
    await repo.insertUser(user('usr_bob', { password_hash: null }));
    expect(await repo.countUsers()).toBe(2);
    expect(await repo.findUserByEmail('usr_ada@example.com')).toEqual(ada);
    expect(await repo.findUserById('usr_bob')).toMatchObject({
      password_hash: null,
      rate_limit_override: null,
    });
    expect(typeof (await repo.findUserById('usr_ada'))?.created_at).toBe('number');
    // Emails are compared exactly: the service lower-cases them before asking.
    expect(await repo.findUserByEmail('USR_ADA@example.com')).toBeUndefined();
    expect(await repo.findUserById('usr_nobody')).toBeUndefined();

    const read = await repo.findUserById('usr_ada');
    if (read) read.role = 'admin';
    ada.plan = 'pro';
    expect(await repo.findUserById('usr_ada')).toMatchObject({ role: 'member', plan: 'standard' });
  });

  it('refuses a second user with the same email or id as the database does (unique violation 23505)', async () => {
    await repo.insertUser(user('usr_dup', { email: 'dup@example.com' }));
    const before = await repo.countUsers();
    await expect(repo.insertUser(user('usr_dup2', { email: 'dup@example.com' }))).rejects.toMatchObject({
      code: '23505',
      constraint: 'users_email_key',
    });
    await expect(repo.insertUser(user('usr_dup', { email: 'other@example.com' }))).rejects.toMatchObject({
      code: '23505',
      constraint: 'users_pkey',
    });
    expect(await repo.countUsers()).toBe(before);
    expect(await repo.findUserByEmail('other@example.com')).toBeUndefined();
  });

  it('the service answers a taken email with a conflict, whatever the case it was given in', async () => {
    const service = createAccountsService({
      repo,
      hasher: fastHasher,
      clock: manualClock(T0),
      plans: { standard: { rateLimit: 120, wsConnections: 5 }, pro: { rateLimit: 600, wsConnections: 50 } },
      sessionTtlMs: HOUR,
    });
    const { user: created } = await service.createUser({ email: 'Taken@Example.com', role: 'viewer' });
    expect(created.email).toBe('taken@example.com');
    const again = service.createUser({ email: 'TAKEN@example.com', role: 'member' });
    await expect(again).rejects.toBeInstanceOf(AppError);
    await expect(again).rejects.toMatchObject({ code: 'conflict' });
    expect(await repo.findUserByEmail('taken@example.com')).toMatchObject({ id: created.id, role: 'viewer' });
  });

  it('updates only the columns given (undefined leaves a column alone) and ignores an unknown id', async () => {
    await repo.insertUser(user('usr_upd', { rate_limit_override: 50 }));
    await repo.updateUser('usr_upd', { plan: 'pro', role: undefined });
    expect(await repo.findUserById('usr_upd')).toMatchObject({
      plan: 'pro',
      role: 'member',
      rate_limit_override: 50,
    });
    await repo.updateUser('usr_upd', { rate_limit_override: null, role: 'viewer' });
    expect(await repo.findUserById('usr_upd')).toMatchObject({
      plan: 'pro',
      role: 'viewer',
      rate_limit_override: null,
    });
    await repo.updateUser('usr_ghost', { plan: 'pro' });
    expect(await repo.findUserById('usr_ghost')).toBeUndefined();
    // Nothing to change is a no-op, not an SQL error.
    await repo.updateUser('usr_upd', {});
    await repo.updateUser('usr_upd', { role: undefined });
    expect(await repo.findUserById('usr_upd')).toMatchObject({ plan: 'pro', role: 'viewer' });
  });

  it('stores tokens with their permissions; finds them by hash with their user, by id; lists newest first', async () => {
    await repo.insertUser(user('usr_tok'));
    await repo.insertUser(user('usr_tok_other'));
    const narrowed = token('tok_b', 'usr_tok', {
      permissions: ['alerts:read', 'market:read'],
      created_at: T0 + 2,
    });
    const none = token('tok_e', 'usr_tok', { permissions: [], created_at: T0 + 1 });
    const tied = token('tok_a', 'usr_tok', { created_at: T0 + 2, expires_at: T0 + HOUR });
    const oldest = token('tok_c', 'usr_tok', { created_at: T0 });
    // Stored out of order, so that the order read comes from the ordering, not from insertion.
    for (const t of [oldest, tied, narrowed, none]) await repo.insertToken(t);
    await repo.insertToken(token('tok_d', 'usr_tok_other', { created_at: T0 + 5 }));

    expect(await repo.findToken('tok_b')).toEqual(narrowed);
    expect(await repo.findToken('tok_e')).toEqual(none);
    expect(await repo.findToken('tok_missing')).toBeUndefined();
    expect(await repo.findTokenByHash('hash-of-tok_a')).toEqual({
      token: tied,
      user: user('usr_tok'),
      // The issuer owns their personal organization, which the token acts in.
      access: { role: 'owner', org: expect.objectContaining({ id: 'usr_tok', personal: true }) },
    });
    expect(await repo.findTokenByHash('hash-of-nothing')).toBeUndefined();
    // created_at desc, then id desc between tokens made in the same millisecond.
    expect((await repo.listTokens('usr_tok')).map((t) => t.id)).toEqual(['tok_b', 'tok_a', 'tok_e', 'tok_c']);
    expect(await repo.listTokens('usr_nobody')).toEqual([]);

    const listed = await repo.listTokens('usr_tok');
    listed[0]?.permissions?.push('admin:write');
    narrowed.permissions?.push('portfolio:write');
    expect((await repo.findToken('tok_b'))?.permissions).toEqual(['alerts:read', 'market:read']);
  });

  it('refuses a token whose hash is taken or whose user does not exist', async () => {
    await repo.insertUser(user('usr_tok2'));
    await repo.insertToken(token('tok_x', 'usr_tok2', { token_hash: 'shared-hash' }));
    await expect(
      repo.insertToken(token('tok_y', 'usr_tok2', { token_hash: 'shared-hash' })),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'api_tokens_token_hash_key',
    });
    await expect(
      repo.insertToken(token('tok_x', 'usr_tok2', { token_hash: 'fresh-hash' })),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'api_tokens_pkey',
    });
    await expect(repo.insertToken(token('tok_z', 'usr_absent'))).rejects.toMatchObject({
      code: '23503',
      constraint: 'api_tokens_user_id_fkey',
    });
    expect(await repo.findToken('tok_y')).toBeUndefined();
    expect(await repo.findToken('tok_z')).toBeUndefined();
    expect((await repo.listTokens('usr_tok2')).map((t) => t.token_hash)).toEqual(['shared-hash']);
  });

  it('counts tokens neither revoked nor expired, revokes once, records rotation and last use', async () => {
    await repo.insertUser(user('usr_rev'));
    const now = T0 + HOUR;
    await repo.insertToken(token('tok_live', 'usr_rev'));
    await repo.insertToken(token('tok_later', 'usr_rev', { expires_at: now + 1 }));
    await repo.insertToken(token('tok_expiring_now', 'usr_rev', { expires_at: now }));
    await repo.insertToken(token('tok_gone', 'usr_rev', { revoked_at: T0 }));
    expect(await repo.countActiveTokens('usr_rev', now)).toBe(2);
    expect(await repo.countActiveTokens('usr_rev', now - 1)).toBe(3);

    expect(await repo.revokeToken('tok_live', now, 'tok_later')).toBe(true);
    expect(await repo.revokeToken('tok_live', now + 5)).toBe(false);
    expect(await repo.revokeToken('tok_gone', now)).toBe(false);
    expect(await repo.revokeToken('tok_missing', now)).toBe(false);
    expect(await repo.findToken('tok_live')).toMatchObject({ revoked_at: now, rotated_to: 'tok_later' });
    expect(await repo.findToken('tok_gone')).toMatchObject({ revoked_at: T0, rotated_to: null });
    await repo.revokeToken('tok_later', now);
    expect(await repo.findToken('tok_later')).toMatchObject({ revoked_at: now, rotated_to: null });
    expect(await repo.countActiveTokens('usr_rev', now - 1)).toBe(1);

    await repo.touchToken('tok_expiring_now', now + 7);
    await repo.touchToken('tok_missing', now);
    expect((await repo.findToken('tok_expiring_now'))?.last_used_at).toBe(now + 7);
    expect((await repo.findTokenByHash('hash-of-tok_expiring_now'))?.token.last_used_at).toBe(now + 7);
  });

  it('keeps sessions by id hash with their user; refuses a duplicate or an unknown user; deletes', async () => {
    const owner = user('usr_ses', { role: 'admin' });
    await repo.insertUser(owner);
    await repo.insertSession({ id_hash: 'ses-1', user_id: 'usr_ses', created_at: T0, expires_at: T0 + HOUR });
    expect(await repo.findSession('ses-1')).toEqual({ user: owner, expires_at: T0 + HOUR });
    expect(await repo.findSession('ses-unknown')).toBeUndefined();
    await expect(
      repo.insertSession({ id_hash: 'ses-1', user_id: 'usr_ses', created_at: T0, expires_at: T0 + 2 * HOUR }),
    ).rejects.toMatchObject({ code: '23505', constraint: 'sessions_pkey' });
    await expect(
      repo.insertSession({ id_hash: 'ses-2', user_id: 'usr_absent', created_at: T0, expires_at: T0 + HOUR }),
    ).rejects.toMatchObject({ code: '23503', constraint: 'sessions_user_id_fkey' });
    expect(await repo.findSession('ses-2')).toBeUndefined();
    // The session reads the user as it is now.
    await repo.updateUser('usr_ses', { role: 'viewer' });
    expect((await repo.findSession('ses-1'))?.user.role).toBe('viewer');
    expect((await repo.findSession('ses-1'))?.expires_at).toBe(T0 + HOUR);
    await repo.deleteSession('ses-1');
    await repo.deleteSession('ses-1');
    expect(await repo.findSession('ses-1')).toBeUndefined();
  });

  it('keeps organizations: personal ones with their users, members and roles, owners, invitations used once', async () => {
    await repo.insertUser(user('usr_oa', { plan: 'pro', rate_limit_override: 500 }));
    await repo.insertUser(user('usr_ob'));
    expect(await repo.findOrganization('usr_oa')).toMatchObject({
      plan: 'pro',
      rate_limit_override: 500,
      personal: true,
    });
    await repo.updateUser('usr_oa', { plan: 'standard' });
    expect(await repo.findOrganization('usr_oa')).toMatchObject({
      plan: 'standard',
      rate_limit_override: 500,
    });
    const team = {
      id: 'org_team',
      name: 'Team',
      plan: 'standard',
      rate_limit_override: null,
      require_2fa: false,
      personal: false,
      created_at: T0 + 5,
    };
    await repo.insertOrganization(team, 'usr_oa');
    await repo.updateOrganization('org_team', { require_2fa: true, name: 'Team 2' });
    expect(await repo.findOrganization('org_team')).toEqual({ ...team, require_2fa: true, name: 'Team 2' });
    const invitation = {
      id: 'inv_1',
      org_id: 'org_team',
      role: 'viewer',
      token_hash: 'inv-hash-1',
      email: null,
      created_by: 'usr_oa',
      created_at: T0 + 6,
      expires_at: T0 + HOUR,
      accepted_at: null,
      accepted_by: null,
    };
    await repo.insertInvitation(invitation);
    expect(await repo.listInvitations('org_team')).toEqual([invitation]);
    const joined = { org_id: 'org_team', user_id: 'usr_ob', role: 'viewer', created_at: T0 + 7 };
    expect(await repo.acceptInvitation('inv_1', joined)).toBe(true);
    expect(await repo.acceptInvitation('inv_1', joined)).toBe(false);
    expect(await repo.findInvitationByHash('inv-hash-1')).toMatchObject({
      accepted_at: T0 + 7,
      accepted_by: 'usr_ob',
    });
    expect(await repo.listInvitations('org_team')).toEqual([]);
    await repo.insertInvitation({ ...invitation, id: 'inv_2', token_hash: 'inv-hash-2' });
    await expect(repo.acceptInvitation('inv_2', joined)).rejects.toMatchObject({ code: '23505' });
    // All or nothing: the refused membership left the invitation open.
    expect((await repo.listInvitations('org_team')).map((i) => i.id)).toEqual(['inv_2']);
    expect(await repo.deleteInvitation('usr_oa', 'inv_2')).toBe(false);
    expect(await repo.deleteInvitation('org_team', 'inv_2')).toBe(true);

    expect((await repo.listMemberships('usr_ob')).map((a) => [a.org.id, a.role])).toEqual([
      ['usr_ob', 'owner'],
      ['org_team', 'viewer'],
    ]);
    expect((await repo.listMembers('org_team')).map((m) => [m.userId, m.email, m.role])).toEqual([
      ['usr_oa', 'usr_oa@example.com', 'owner'],
      ['usr_ob', 'usr_ob@example.com', 'viewer'],
    ]);
    expect(await repo.countOwners('org_team')).toBe(1);
    await repo.transferOwnership('org_team', 'usr_oa', 'usr_ob');
    expect((await repo.findMembership('org_team', 'usr_oa'))?.role).toBe('admin');
    expect((await repo.findMembership('org_team', 'usr_ob'))?.role).toBe('owner');
    await repo.setMemberRole('org_team', 'usr_oa', 'member');
    expect((await repo.findMembership('org_team', 'usr_oa'))?.role).toBe('member');

    await repo.insertToken(token('tok_o1', 'usr_oa', { org_id: 'org_team', token_hash: 'h-o1' }));
    await repo.insertToken(token('tok_o2', 'usr_oa', { token_hash: 'h-o2' }));
    expect(await repo.countActiveOrgTokens('org_team', T0)).toBe(1);
    expect((await repo.listTokens('usr_oa', 'org_team')).map((t) => t.id)).toEqual(['tok_o1']);
    expect((await repo.listTokens(undefined, 'org_team')).map((t) => t.id)).toEqual(['tok_o1']);
    expect(await repo.deleteMembership('org_team', 'usr_oa')).toBe(true);
    expect(await repo.deleteMembership('org_team', 'usr_oa')).toBe(false);
    expect((await repo.findTokenByHash('h-o1'))?.access).toBeUndefined();
    expect(await repo.revokeMemberTokens('org_team', 'usr_oa', T0 + 9)).toEqual(['h-o1']);
    expect((await repo.findToken('tok_o2'))?.revoked_at).toBeNull();
  });

  it('links provider identities: one per (issuer, sub) and per (issuer, account); a new account with its identity is all or nothing', async () => {
    const iss = 'https://id.example';
    const identity = (subject: string, userId: string) => ({
      issuer: iss,
      subject,
      user_id: userId,
      email: `${subject}@example.com`,
      created_at: T0,
      last_sign_in_at: T0,
    });
    const made = user('usr_sso', { password_hash: null });
    await repo.insertUserWithIdentity(made, identity('sub-1', 'usr_sso'));
    expect(await repo.findUserByIdentity(iss, 'sub-1')).toEqual(made);
    expect(await repo.findUserByIdentity('https://other.example', 'sub-1')).toBeUndefined();

    // The identity is taken: neither the second user nor its identity is stored.
    await expect(
      repo.insertUserWithIdentity(user('usr_sso2'), identity('sub-1', 'usr_sso2')),
    ).rejects.toMatchObject({ code: '23505', constraint: 'user_identities_pk' });
    expect(await repo.findUserById('usr_sso2')).toBeUndefined();

    // A second sub of the same issuer cannot claim an account already linked; another issuer can.
    await expect(repo.insertIdentity(identity('sub-2', 'usr_sso'))).rejects.toMatchObject({
      code: '23505',
      constraint: 'user_identities_issuer_user_key',
    });
    await repo.insertIdentity({ ...identity('sub-2', 'usr_sso'), issuer: 'https://other.example' });
    expect((await repo.findUserByIdentity('https://other.example', 'sub-2'))?.id).toBe('usr_sso');
    await expect(repo.insertIdentity(identity('sub-3', 'usr_absent'))).rejects.toMatchObject({
      code: '23503',
      constraint: 'user_identities_user_id_fkey',
    });
    await repo.touchIdentity(iss, 'sub-1', 'renamed@example.com', T0 + HOUR);
    expect((await repo.findUserByIdentity(iss, 'sub-1'))?.id).toBe('usr_sso');
  });
});
