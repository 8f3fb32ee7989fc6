import { createHash } from 'node:crypto';
import { type Container, type ContainerOptions, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import type { DbTimeouts } from '../../src/adapters/db/connect.ts';
import type { PasswordHasher } from '../../src/modules/accounts/index.ts';
import { type DbKind, openTestDatabase } from './db.ts';

/** A fast stand-in for argon2id in tests that are not about password hashing. */
export const fastHasher: PasswordHasher = {
  hash: async (password) => `test$${createHash('sha256').update(password).digest('hex')}`,
  verify: async (hash, password) => hash === `test$${createHash('sha256').update(password).digest('hex')}`,
};

export interface TestApp {
  app: App;
  container: Container;
  /** Creates a user and an API token for it. */
  user(
    role?: 'viewer' | 'member' | 'admin',
    options?: { permissions?: string[]; plan?: string },
  ): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  tokenId: string;
  auth: { authorization: string };
}

let counter = 0;

/** A full app (real database, real routes) with the given environment on top of the defaults. */
export async function createTestApp(
  options: {
    db?: DbKind;
    env?: Record<string, string>;
    container?: ContainerOptions;
    /** PostgreSQL pool timeouts of the test database (default: the production defaults). */
    dbTimeouts?: Partial<DbTimeouts>;
  } = {},
): Promise<TestApp> {
  const db = await openTestDatabase(options.db ?? 'pglite', options.dbTimeouts);
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env });
  const container = await buildContainer(config, {
    hasher: fastHasher,
    db,
    skipMigrations: true,
    ...options.container,
  });
  const app = await buildServer(container, { logLevel: 'silent' });
  await app.ready();
  return {
    app,
    container,
    async user(role = 'member', opts = {}) {
      const email = `user${++counter}-${Date.now()}@example.com`;
      const password = 'correct horse battery';
      const { user } = await container.accounts.createUser({ email, role, password, plan: opts.plan });
      const created = await container.accounts.createToken(user.id, {
        name: 'test',
        permissions: opts.permissions ?? null,
      });
      return {
        id: user.id,
        email,
        password,
        token: created.token,
        tokenId: created.view.id,
        auth: { authorization: `Bearer ${created.token}` },
      };
    },
    async close() {
      await app.close();
      await container.close();
      await db.close();
    },
  };
}
