import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';
import { connect, refused } from './client.ts';

/**
 * What a client's protocol mistakes leave behind (issue 34, item 9): a token offered as a subprotocol is never
 * sent back, and an oversized frame is one warn line without a stack trace, not an error.
 */
describe('push channel protocol errors', () => {
  const lines: string[] = [];
  let app: App;
  let close: () => Promise<void>;
  let token: string;
  let base: string;
  beforeAll(async () => {
    const db = await openTestDatabase('pglite');
    const container = await buildContainer(loadConfig({ LOG_LEVEL: 'info' }), {
      db,
      hasher: fastHasher,
      skipMigrations: true,
    });
    app = await buildServer(container, {
      logLevel: 'info',
      logStream: { write: (line) => lines.push(line) },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const { user } = await container.accounts.createUser({ email: 'ws@example.com', role: 'member' });
    token = (await container.accounts.createToken(user.id, { name: 'ws' })).token;
    close = async () => {
      await app.close();
      await container.close();
      await db.close();
    };
  });
  afterAll(() => close());

  it.each(['/predictions', '/market', '/events'])(
    '%s never answers with the token offered as a subprotocol',
    async (path) => {
      const named = await connect(`${base}${path}`, { protocols: ['meridian.v1', token] });
      expect(named.ws.protocol).toBe('meridian.v1');
      named.ws.close();
      await named.closed;

      const alone = await refused(`${base}${path}`, { protocols: [token] });
      expect(alone.status).toBe(400);
      expect(alone.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(alone.body.detail).toContain('meridian.v1');
      expect(JSON.stringify(alone)).not.toContain(token);
    },
  );

  it('logs an oversized frame as one warn line without a stack trace', async () => {
    const c = await connect(`${base}/predictions`, { headers: { authorization: `Bearer ${token}` } });
    const from = lines.length;
    c.send({ type: 'subscribe', symbols: ['BTCUSDT'], pad: 'x'.repeat(5_000) });
    expect((await c.closed).code).toBe(1009);
    const about = () =>
      lines
        .slice(from)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => JSON.stringify(l).includes('ayload'));
    await waitUntil(() => about().length > 0, 'the frame to be logged', 2_000);
    await new Promise((r) => setTimeout(r, 50));
    const logged = about();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe(40);
    expect(JSON.stringify(logged[0])).not.toMatch(/stack|\bat \S+ \(/);
  });
});
