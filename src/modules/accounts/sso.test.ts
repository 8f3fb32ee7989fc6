import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { createMemoryAccountsRepository } from './repository.memory.ts';
import { type SsoPolicy, createSsoSignIn } from './sso.ts';
import type { UsersTable } from './tables.ts';

const issuer = 'https://id.example';
const person = (subject: string, email: string, emailVerified = true) => ({
  issuer,
  subject,
  email,
  emailVerified,
});

function setup(policy: Partial<SsoPolicy> = {}) {
  const repo = createMemoryAccountsRepository();
  const opened: UsersTable[] = [];
  const sso = createSsoSignIn({
    repo,
    clock: manualClock(Date.UTC(2026, 0, 1)),
    policy: { allowedDomains: ['example.com'], defaultRole: 'viewer', defaultPlan: 'standard', ...policy },
    openSession: async (user) => {
      opened.push(user);
      return { sessionId: `s${opened.length}`, principal: { userId: user.id } as never };
    },
  });
  return { repo, sso, opened };
}

describe('single sign-on admission and accounts', () => {
  it('matches domains without regard to case, and `*` admits any verified email', async () => {
    const { sso } = setup();
    await expect(sso.signIn(person('a', 'A@EXAMPLE.COM'))).resolves.toMatchObject({ outcome: 'created' });
    await expect(sso.signIn(person('b', 'b@sub.example.com'))).rejects.toMatchObject({
      reason: 'domain_not_allowed',
    });
    const open = setup({ allowedDomains: ['*'] });
    await expect(open.sso.signIn(person('c', 'c@anywhere.net'))).resolves.toMatchObject({
      outcome: 'created',
    });
    await expect(open.sso.signIn(person('d', 'd@anywhere.net', false))).rejects.toMatchObject({
      reason: 'email_unverified',
    });
    await expect(open.sso.signIn({ ...person('e', ''), email: undefined })).rejects.toMatchObject({
      reason: 'email_unverified',
    });
  });

  it('applies the policy again to a known identity: a domain taken off the list stops its people', async () => {
    const repo = createMemoryAccountsRepository();
    const clock = manualClock(0);
    const openSession = async (user: UsersTable) => ({
      sessionId: 's',
      principal: { userId: user.id } as never,
    });
    const before = createSsoSignIn({
      repo,
      clock,
      policy: { allowedDomains: ['example.com'], defaultRole: 'member', defaultPlan: 'pro' },
      openSession,
    });
    await before.signIn(person('a', 'a@example.com'));
    expect(await repo.findUserByEmail('a@example.com')).toMatchObject({ role: 'member', plan: 'pro' });
    const after = createSsoSignIn({
      repo,
      clock,
      policy: { allowedDomains: ['example.org'], defaultRole: 'member', defaultPlan: 'pro' },
      openSession,
    });
    await expect(after.signIn(person('a', 'a@example.com'))).rejects.toMatchObject({
      reason: 'domain_not_allowed',
    });
  });

  it('refuses a second subject of the same provider claiming an already linked account', async () => {
    const { sso } = setup();
    const first = await sso.signIn(person('sub-1', 'ops@example.com'));
    await expect(sso.signIn(person('sub-2', 'ops@example.com'))).rejects.toMatchObject({
      reason: 'linked_elsewhere',
    });
    await expect(sso.signIn(person('sub-1', 'ops@example.com'))).resolves.toMatchObject({
      outcome: 'signed_in',
    });
    expect(first.outcome).toBe('created');
  });

  it('gives two parallel first sign-ins of one person the same account', async () => {
    const { sso, opened } = setup();
    const results = await Promise.all([
      sso.signIn(person('twin', 'twin@example.com')),
      sso.signIn(person('twin', 'twin@example.com')),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['created', 'signed_in']);
    expect(new Set(opened.map((u) => u.id)).size).toBe(1);
  });
});
