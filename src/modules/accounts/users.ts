import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import { type PasswordHasher, minPasswordLength } from './password.ts';
import { isPlan, isRole } from './permissions.ts';
import type { AccountsRepository } from './repository.ts';
import type { UsersTable } from './tables.ts';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UsersDeps {
  repo: Pick<AccountsRepository, 'findUserByEmail' | 'insertUser' | 'updateUser' | 'countUsers'>;
  hasher: PasswordHasher;
  clock: Clock;
  /** A user's role or plan changed: their cached tokens must be dropped, here and on every replica. */
  userChanged(userId: string): void;
}

/** Users: creation (operator commands, first start), plan and role changes. */
export function createUsers(deps: UsersDeps) {
  const { repo, hasher, clock } = deps;

  async function createUser(input: { email: string; role: string; password?: string; plan?: string }) {
    const email = input.email.trim().toLowerCase();
    const problems = [];
    if (!emailPattern.test(email)) problems.push({ pointer: '/email', message: 'must be an email address' });
    if (!isRole(input.role))
      problems.push({ pointer: '/role', message: 'must be one of viewer, member, admin' });
    if (input.plan !== undefined && !isPlan(input.plan))
      problems.push({ pointer: '/plan', message: 'must be one of standard, pro' });
    if (input.password !== undefined && input.password.length < minPasswordLength)
      problems.push({ pointer: '/password', message: `must have at least ${minPasswordLength} characters` });
    if (problems.length)
      throw new AppError('validation_failed', problems.map((p) => p.message).join('; '), {
        errors: problems,
      });
    if (await repo.findUserByEmail(email))
      throw new AppError('conflict', `a user with email ${email} already exists`);
    const password = input.password ?? randomBase62(20);
    const user: UsersTable = {
      id: newId('usr'),
      email,
      password_hash: await hasher.hash(password),
      role: input.role,
      plan: input.plan ?? 'standard',
      rate_limit_override: null,
      created_at: clock.now(),
    };
    await repo.insertUser(user);
    return { user, generatedPassword: input.password === undefined ? password : undefined };
  }

  async function requireUserByEmail(email: string): Promise<UsersTable> {
    const user = await repo.findUserByEmail(email.trim().toLowerCase());
    if (!user) throw new AppError('not_found', `no user with email ${email}`);
    return user;
  }

  async function setPlan(email: string, plan: string, rateLimit?: number | null) {
    if (!isPlan(plan))
      throw new AppError('validation_failed', 'plan must be one of standard, pro', {
        errors: [{ pointer: '/plan', message: 'must be one of standard, pro' }],
      });
    if (rateLimit !== undefined && rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1))
      throw new AppError('validation_failed', 'rate limit must be a positive integer', {
        errors: [{ pointer: '/rateLimit', message: 'must be a positive integer' }],
      });
    const user = await requireUserByEmail(email);
    await repo.updateUser(user.id, { plan, rate_limit_override: rateLimit ?? null });
    deps.userChanged(user.id);
    return { ...user, plan, rate_limit_override: rateLimit ?? null };
  }

  /** Changes a user's role; their tokens act with the new role from the next request, on every replica. */
  async function setRole(email: string, role: string) {
    if (!isRole(role))
      throw new AppError('validation_failed', 'role must be one of viewer, member, admin', {
        errors: [{ pointer: '/role', message: 'must be one of viewer, member, admin' }],
      });
    const user = await requireUserByEmail(email);
    await repo.updateUser(user.id, { role });
    deps.userChanged(user.id);
    return { ...user, role };
  }

  return {
    createUser,
    setPlan,
    setRole,
    findUserByEmail: (email: string) => repo.findUserByEmail(email.trim().toLowerCase()),
    countUsers: () => repo.countUsers(),
  };
}
