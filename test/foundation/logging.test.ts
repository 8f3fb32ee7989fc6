import { describe, expect, it } from 'vitest';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase } from '../harness/db.ts';

describe('logs never carry secrets', () => {
  it('logs every request at debug level without tokens, cookies or passwords', async () => {
    const lines: string[] = [];
    const db = await openTestDatabase('pglite');
    const container = await buildContainer(loadConfig({ LOG_LEVEL: 'debug' }), {
      db,
      hasher: fastHasher,
      skipMigrations: true,
    });
    const app = await buildServer(container, {
      logLevel: 'trace',
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const password = 'very-secret-password-123';
      const { user } = await container.accounts.createUser({
        email: 'log@example.com',
        role: 'admin',
        password,
      });
      const { token } = await container.accounts.createToken(user.id, { name: 'log' });
      await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token.slice(0, -1)}x` } });
      const login = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'log@example.com', password },
      });
      const session = login.cookies[0]!.value;
      await app.inject({ url: '/api/account/tokens', headers: { cookie: `meridian_session=${session}` } });
      const created = await app.inject({
        method: 'POST',
        url: '/api/account/tokens',
        headers: { cookie: `meridian_session=${session}` },
        payload: { name: 'second' },
      });
      const second = created.json().token as string;

      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(4); // request lines were written
      expect(log).toContain('/api/account');
      for (const secret of [token, token.slice(4, 20), password, session, second])
        expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await container.close();
      await db.close();
    }
  });
});
