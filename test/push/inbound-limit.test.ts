import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { type Client, connect } from './client.ts';

/**
 * Issue 34, item 5: every push channel caps inbound messages as `/predictions` does (20 per 10 s taken, 20
 * more ignored, then 4429). A client flooding `/events` or `/market` is closed with 4429; another socket of
 * the same account stays open and answers.
 */
describe('inbound message limit on every push channel', () => {
  let t: TestApp;
  let base: string;
  let user: TestUser;
  const open: Client[] = [];
  const client = async (path: string) => {
    const c = await connect(`${base}${path}`, { headers: user.auth });
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MERIDIAN_SYMBOLS: 'BTCUSDT',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
      },
    });
    user = await t.user('member');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await t?.close();
  });

  it.each(['/events', '/market', '/predictions'])(
    '%s closes a flooding socket with 4429, not its neighbour',
    async (path) => {
      const flooder = await client(path);
      const neighbour = await client(path);
      for (let i = 0; i < 100; i++) flooder.send({ type: 'ping', id: i });
      expect(await flooder.closed).toMatchObject({ code: 4429, reason: 'too many messages' });
      expect(neighbour.ws.readyState).toBe(neighbour.ws.OPEN);
      const pong = new Promise<void>((resolve) => neighbour.ws.once('pong', () => resolve()));
      neighbour.ws.ping();
      await pong;
      // A few messages, well under the limit, are fine.
      for (let i = 0; i < 5; i++) neighbour.send({ type: 'ping', id: i });
      neighbour.ws.ping();
      await new Promise<void>((resolve) => neighbour.ws.once('pong', () => resolve()));
      expect(neighbour.ws.readyState).toBe(neighbour.ws.OPEN);
    },
  );
});
