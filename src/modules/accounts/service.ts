import { randomBytes } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId, randomBase62 } from '../../shared/ids.ts';
import { type PasswordHasher, minPasswordLength } from './password.ts';
import {
  type Permission,
  type Plan,
  type Role,
  effectivePermissions,
  isPermission,
  isPlan,
  isRole,
  rolePermissions,
} from './permissions.ts';
import type { Principal } from './principal.ts';
import type { AccountsRepository } from './repository.ts';
import type { ApiToken, UsersTable } from './tables.ts';
import {
  displayStart,
  generateToken,
  hashToken,
  isWellFormedToken,
  sha256Hex,
  tokenLength,
} from './token-format.ts';
import { type DebugLog, logAndIgnore } from '../../shared/log-and-ignore.ts';

interface CachedToken {
  principal: Principal;
  fetchedAt: number;
  lastUsedAt: number | null;
}

export interface PlanLimits {
  rateLimit: number;
  wsConnections: number;
}

export interface AccountsDeps {
  repo: AccountsRepository;
  hasher: PasswordHasher;
  clock: Clock;
  plans: Readonly<Record<Plan, PlanLimits>>;
  sessionTtlMs: number;
  /** Tells other replicas to drop a revoked token from their caches. */
  announceRevocation?: (tokenHash: string) => void;
  /** Tells other replicas that a user's role or plan changed, so they drop that user's cached tokens. */
  announceUserChange?: (userId: string) => void;
  /** Where a failed "last used" update is noted (debug: the bookkeeping is coarse and best effort). */
  log?: DebugLog;
}

/** A token as listed to its owner: never the secret, never the hash. */
export interface TokenView {
  id: string;
  name: string;
  start: string;
  permissions: Permission[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

export interface AccountView {
  id: string;
  email: string;
  role: Role;
  plan: Plan;
  limits: { requestsPerMinute: number; wsConnections: number };
  permissions: Permission[];
  authenticatedWith: 'token' | 'session';
  createdAt: string;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const lastUsedResolutionMs = 60_000;
const cacheTtlMs = 5_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export type AccountsService = ReturnType<typeof createAccountsService>;

/**
 * Users, API tokens and console sessions. Token checks are the hot path of every request, so resolved
 * tokens are cached for a few seconds; revocation drops the entry here and, through the bus, on every
 * other replica, so a revoked token is refused on its next request.
 */
export function createAccountsService(deps: AccountsDeps) {
  const { repo, hasher, clock, plans } = deps;
  const cache = new Map<string, CachedToken>();
  // Bumped by every drop: a lookup that began before a drop must not cache what it read (it may predate the
  // change the drop announced), or a revocation heard on the bus could be undone for up to the cache's TTL.
  let drops = 0;

  const limitsOf = (user: UsersTable): PlanLimits => {
    const plan = plans[user.plan as Plan] ?? plans.standard;
    return { rateLimit: user.rate_limit_override ?? plan.rateLimit, wsConnections: plan.wsConnections };
  };

  function principalOf(user: UsersTable, token?: ApiToken, sessionIdHash?: string): Principal {
    const role = user.role as Role;
    const limits = limitsOf(user);
    return {
      kind: token ? 'token' : 'session',
      userId: user.id,
      email: user.email,
      role,
      plan: user.plan as Plan,
      rateLimit: limits.rateLimit,
      wsConnections: limits.wsConnections,
      permissions: new Set(effectivePermissions(role, token?.permissions ?? null)),
      tokenId: token?.id,
      credentialHash: token?.token_hash ?? sessionIdHash,
      tokenExpiresAt: token?.expires_at ?? null,
      createdAt: user.created_at,
    };
  }

  function tokenView(t: ApiToken): TokenView {
    const now = clock.now();
    const status =
      t.revoked_at !== null ? 'revoked' : t.expires_at !== null && t.expires_at <= now ? 'expired' : 'active';
    return {
      id: t.id,
      name: t.name,
      start: `${t.start}…`,
      permissions: (t.permissions as Permission[] | null) ?? null,
      createdAt: iso(t.created_at)!,
      lastUsedAt: iso(t.last_used_at),
      expiresAt: iso(t.expires_at),
      revokedAt: iso(t.revoked_at),
      status,
    };
  }

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
    userChanged(user.id);
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
    userChanged(user.id);
    return { ...user, role };
  }

  /** Drops a user's cached tokens here and asks every other replica to do the same. */
  function userChanged(userId: string) {
    dropUser(userId);
    deps.announceUserChange?.(userId);
  }

  function dropUser(userId: string) {
    drops++;
    for (const [hash, entry] of cache) if (entry.principal.userId === userId) cache.delete(hash);
  }

  async function createToken(
    userId: string,
    input: { name: string; expiresAt?: number | null; permissions?: string[] | null },
  ): Promise<{ token: string; view: TokenView }> {
    const user = await repo.findUserById(userId);
    if (!user) throw new AppError('not_found', 'user not found');
    const name = input.name.trim();
    if (!name || name.length > 100)
      throw new AppError('validation_failed', 'name must have 1 to 100 characters', {
        errors: [{ pointer: '/body/name', message: 'must have 1 to 100 characters' }],
      });
    if (input.expiresAt != null && input.expiresAt <= clock.now())
      throw new AppError('validation_failed', 'expiry must be in the future', {
        errors: [{ pointer: '/body/expiresAt', message: 'must be in the future' }],
      });
    let narrowed: Permission[] | null = null;
    if (input.permissions) {
      const unknown = input.permissions.filter((p) => !isPermission(p));
      if (unknown.length)
        throw new AppError('validation_failed', `unknown permissions: ${unknown.join(', ')}`, {
          errors: unknown.map((p) => ({ pointer: '/body/permissions', message: `unknown permission ${p}` })),
        });
      const granted = rolePermissions[user.role as Role];
      const beyond = input.permissions.filter((p) => !granted.includes(p as Permission));
      if (beyond.length)
        throw new AppError(
          'forbidden',
          `a token cannot grant permissions its owner lacks: ${beyond.join(', ')}`,
        );
      narrowed = [...new Set(input.permissions as Permission[])];
    }
    const token = generateToken();
    const row: ApiToken = {
      id: newId('tok'),
      user_id: user.id,
      name,
      token_hash: hashToken(token),
      start: displayStart(token),
      permissions: narrowed,
      created_at: clock.now(),
      last_used_at: null,
      expires_at: input.expiresAt ?? null,
      revoked_at: null,
      rotated_to: null,
    };
    await repo.insertToken(row);
    return { token, view: tokenView(row) };
  }

  async function ownedToken(userId: string, tokenId: string): Promise<ApiToken> {
    const token = await repo.findToken(tokenId);
    // Another account's token answers exactly like a missing one: no way to probe ids.
    if (!token || token.user_id !== userId) throw new AppError('not_found', `no token with id ${tokenId}`);
    return token;
  }

  function forget(tokenHash: string) {
    drops++;
    cache.delete(tokenHash);
    deps.announceRevocation?.(tokenHash);
  }

  async function revokeToken(userId: string | null, tokenId: string): Promise<TokenView> {
    const token = userId ? await ownedToken(userId, tokenId) : await repo.findToken(tokenId);
    if (!token) throw new AppError('not_found', `no token with id ${tokenId}`);
    if (token.revoked_at === null) {
      await repo.revokeToken(token.id, clock.now());
      forget(token.token_hash);
    }
    const fresh = await repo.findToken(token.id);
    return tokenView(fresh!);
  }

  /** Issues a replacement with the same name, permissions and expiry, and revokes the old one at once. */
  async function rotateToken(userId: string, tokenId: string) {
    const old = await ownedToken(userId, tokenId);
    if (old.revoked_at !== null) throw new AppError('conflict', 'a revoked token cannot be rotated');
    const created = await createToken(userId, {
      name: old.name,
      expiresAt: old.expires_at !== null && old.expires_at > clock.now() ? old.expires_at : null,
      permissions: old.permissions,
    });
    await repo.revokeToken(old.id, clock.now(), created.view.id);
    forget(old.token_hash);
    return created;
  }

  /**
   * Resolves an API token to its principal; throws `invalid_token` for anything not currently valid.
   * Synchronous while the token's cache entry is fresh (every request but one a minute per token), so the
   * request hook adds no promise turn on the hot path; a promise only when the database must be asked.
   */
  function authenticateToken(secret: string): Principal | Promise<Principal> {
    // The cache is asked first: an entry means a stored token, whose shape and checksum were checked when it
    // was first seen. Anything else is checked before any storage work.
    if (secret.length !== tokenLength) throw new AppError('invalid_token', 'the token is malformed');
    const hash = hashToken(secret);
    const now = clock.now();
    const entry = cache.get(hash);
    if (entry && now - entry.fetchedAt <= cacheTtlMs) return admit(entry, now);
    if (!isWellFormedToken(secret)) throw new AppError('invalid_token', 'the token is malformed');
    const dropsBefore = drops;
    return repo.findTokenByHash(hash).then((found) => {
      if (!found) {
        cache.delete(hash);
        throw new AppError('invalid_token', 'the token is not known');
      }
      if (found.token.revoked_at !== null) throw new AppError('invalid_token', 'the token was revoked');
      const fresh = {
        principal: principalOf(found.user, found.token),
        fetchedAt: now,
        lastUsedAt: found.token.last_used_at,
      };
      if (drops === dropsBefore) cache.set(hash, fresh);
      return admit(fresh, now);
    });
  }

  /**
   * The principal of a token whose cache entry is fresh and valid, without storage and without counting a
   * failure; `undefined` otherwise (the caller then goes through `authenticateToken`).
   */
  function peekToken(secret: string): Principal | undefined {
    if (secret.length !== tokenLength) return undefined;
    const now = clock.now();
    const entry = cache.get(hashToken(secret));
    if (!entry || now - entry.fetchedAt > cacheTtlMs) return undefined;
    const expiresAt = entry.principal.tokenExpiresAt;
    return expiresAt != null && expiresAt <= now ? undefined : admit(entry, now);
  }

  function admit(entry: CachedToken, now: number): Principal {
    const expiresAt = entry.principal.tokenExpiresAt;
    if (expiresAt != null && expiresAt <= now) throw new AppError('invalid_token', 'the token has expired');
    if (entry.lastUsedAt === null || now - entry.lastUsedAt >= lastUsedResolutionMs) {
      entry.lastUsedAt = now;
      // Coarse "last used" bookkeeping must never slow or fail a request; a failed update is retried at the
      // next use after the resolution period, so a failure is noted at debug level only.
      repo
        .touchToken(entry.principal.tokenId!, now)
        .catch(logAndIgnore(deps.log ?? { debug() {} }, 'token last-used update failed', 'debug'));
    }
    return entry.principal;
  }

  const sessionHash = (id: string) => sha256Hex(id);
  // A fixed hash to verify against when the email is unknown, so timing does not reveal which emails exist.
  let decoyHash: Promise<string> | undefined;

  async function login(
    email: string,
    password: string,
  ): Promise<{ sessionId: string; principal: Principal }> {
    const user = await repo.findUserByEmail(email.trim().toLowerCase());
    if (!user?.password_hash) {
      decoyHash ??= hasher.hash(randomBase62(16));
      await hasher.verify(await decoyHash, password);
      throw new AppError('invalid_credentials');
    }
    if (!(await hasher.verify(user.password_hash, password))) throw new AppError('invalid_credentials');
    const sessionId = randomBytes(32).toString('base64url');
    const now = clock.now();
    await repo.insertSession({
      id_hash: sessionHash(sessionId),
      user_id: user.id,
      created_at: now,
      expires_at: now + deps.sessionTtlMs,
    });
    return { sessionId, principal: principalOf(user) };
  }

  async function authenticateSession(sessionId: string): Promise<Principal> {
    const idHash = sessionHash(sessionId);
    const found = await repo.findSession(idHash);
    if (!found || found.expires_at <= clock.now())
      throw new AppError('session_required', 'the session has ended; sign in again');
    return principalOf(found.user, undefined, idHash);
  }

  async function logout(sessionId: string) {
    await repo.deleteSession(sessionHash(sessionId));
  }

  function account(principal: Principal): AccountView {
    return {
      id: principal.userId,
      email: principal.email,
      role: principal.role,
      plan: principal.plan,
      limits: { requestsPerMinute: principal.rateLimit, wsConnections: principal.wsConnections },
      permissions: [...principal.permissions].sort(),
      authenticatedWith: principal.kind,
      createdAt: new Date(principal.createdAt).toISOString(),
    };
  }

  return {
    createUser,
    setPlan,
    setRole,
    findUserByEmail: (email: string) => repo.findUserByEmail(email.trim().toLowerCase()),
    countUsers: () => repo.countUsers(),
    createToken,
    listTokens: async (userId: string) => (await repo.listTokens(userId)).map(tokenView),
    countActiveTokens: (userId: string) => repo.countActiveTokens(userId, clock.now()),
    revokeToken,
    rotateToken,
    authenticateToken,
    peekToken,
    login,
    authenticateSession,
    logout,
    account,
    /** Called when another replica announces a revocation. */
    dropCached: (tokenHash: string) => {
      drops++;
      cache.delete(tokenHash);
    },
    /** Called when another replica announces a changed role or plan. */
    dropUser,
    /** True while a cached principal for this token is still valid (used by the push channel's sweeps). */
    isTokenStillValid: async (tokenId: string) => {
      const token = await repo.findToken(tokenId);
      return (
        !!token && token.revoked_at === null && (token.expires_at === null || token.expires_at > clock.now())
      );
    },
  };
}
