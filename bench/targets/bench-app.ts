// The real Meridian app for bench targets: in-memory PGlite, the full container and HTTP server, and one
// account on the pro plan with an effectively unlimited rate limit (the limiter runs but never refuses),
// with an API token for it.
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';

export async function benchApp(
  env: Record<string, string> = {},
  options: { role?: 'viewer' | 'admin'; prepare?: (container: Container) => void | Promise<void> } = {},
): Promise<{ app: App; container: Container; token: string }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', MERIDIAN_DATA_DIR: '', ...env });
  const container = await buildContainer(config, { db: await openDatabase({}) });
  await options.prepare?.(container);
  const app = await buildServer(container, { logLevel: 'silent' });
  const { user } = await container.accounts.createUser({
    email: 'bench@example.com',
    role: options.role ?? 'admin',
    password: 'bench-password-1',
  });
  await container.accounts.setPlan(user.email, 'pro', 1_000_000_000);
  const { token } = await container.accounts.createToken(user.id, { name: 'bench' });
  return { app, container, token };
}
