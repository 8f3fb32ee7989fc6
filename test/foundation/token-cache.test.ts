import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesOf, type DbHandle } from '../../src/adapters/db/connect.ts';
import { buildOperatorContext } from '../../src/app/operator.ts';
import { loadConfig } from '../../src/config/env.ts';
import { createAccountsService, createKyselyAccountsRepository } from '../../src/modules/accounts/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestDatabase, openTestPostgres, postgresAvailable, redisUrl } from '../harness/db.ts';
import { waitFor } from '../harness/wait.ts';

const plans = {
  standard: { rateLimit: 120, wsConnections: 5 },
  pro: { rateLimit: 600, wsConnections: 50 },
} as const;

/** One replica's accounts service over a shared database; replicas are not told of each other's changes. */
function replica(db: DbHandle, clock: ReturnType<typeof manualClock>) {
  return createAccountsService({
    repo: createKyselyAccountsRepository(tablesOf(db.db)),
    hasher: fastHasher,
    clock,
    plans,
    sessionTtlMs: 3_600_000,
  });
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

describe('token cache: role and plan changes reach a replica that was not told, by expiry', () => {
  it('serves the cached role and plan for at most 5 s after it was read, then the stored ones', async () => {
    const db = await openTestDatabase('pglite');
    opened.push(db);
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const [a, b] = [replica(db, clock), replica(db, clock)];
    const { user } = await b.createUser({ email: 'cached@example.com', role: 'member' });
    const { token } = await b.createToken(user.id, { name: 'cache' });

    const first = await a.authenticateToken(token); // read from storage: cached from this instant
    expect(first).toMatchObject({ role: 'member', plan: 'standard', rateLimit: 120, wsConnections: 5 });
    clock.advance(1_000);
    await b.setRole('cached@example.com', 'viewer'); // another replica (the CLI): `a` is not told
    await b.setPlan('cached@example.com', 'pro');

    clock.advance(4_000); // 5 s after the read: still the cached principal (the documented bound)
    expect(await a.authenticateToken(token)).toMatchObject({ role: 'member', plan: 'standard' });
    clock.advance(1); // past the bound: read again
    const after = await a.authenticateToken(token);
    expect(after).toMatchObject({ role: 'viewer', plan: 'pro', rateLimit: 600, wsConnections: 50 });
    expect(after.permissions.has('alerts:write')).toBe(false);
    // The replica that made the change dropped its own entry at once.
    expect(await b.authenticateToken(token)).toMatchObject({ role: 'viewer', plan: 'pro' });
  });

  it('a read that began before a change is cached from when it began, not from when it answered', async () => {
    const db = await openTestDatabase('pglite');
    opened.push(db);
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const repo = createKyselyAccountsRepository(tablesOf(db.db));
    // The lookup answers (with the old row) only after the clock has moved on 3 s and the role changed.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let markRead!: () => void;
    const read = new Promise<void>((r) => {
      markRead = r;
    });
    const slow = {
      ...repo,
      findTokenByHash: async (hash: string) => {
        const found = await repo.findTokenByHash(hash);
        markRead();
        await gate;
        return found;
      },
    };
    const a = createAccountsService({
      repo: slow,
      hasher: fastHasher,
      clock,
      plans,
      sessionTtlMs: 3_600_000,
    });
    const b = replica(db, clock);
    const { user } = await b.createUser({ email: 'race@example.com', role: 'member' });
    const { token } = await b.createToken(user.id, { name: 'race' });

    const pending = a.authenticateToken(token);
    await read; // the lookup has read the (old) row
    clock.advance(3_000);
    await b.setRole('race@example.com', 'viewer');
    release();
    expect(await pending).toMatchObject({ role: 'member' });
    clock.advance(2_001); // 5 s after the lookup began (not after it answered): expired
    const fresh = await (a.authenticateToken(token) as Promise<unknown>);
    expect(fresh).toMatchObject({ role: 'viewer' });
  });
});

describe('token cache: an announcement heard during a lookup', () => {
  it('keeps the lookup from caching what it read before the change', async () => {
    const db = await openTestDatabase('pglite');
    opened.push(db);
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const repo = createKyselyAccountsRepository(tablesOf(db.db));
    let hold: Promise<void> | undefined;
    let release!: () => void;
    let markRead!: () => void;
    const slow = {
      ...repo,
      findTokenByHash: async (hash: string) => {
        const found = await repo.findTokenByHash(hash);
        if (hold) {
          markRead();
          await hold;
        }
        return found;
      },
    };
    const a = createAccountsService({
      repo: slow,
      hasher: fastHasher,
      clock,
      plans,
      sessionTtlMs: 3_600_000,
    });
    const b = replica(db, clock);
    const { user } = await b.createUser({ email: 'heard@example.com', role: 'member' });
    const { token } = await b.createToken(user.id, { name: 'heard' });

    const read = new Promise<void>((r) => {
      markRead = r;
    });
    hold = new Promise<void>((r) => {
      release = r;
    });
    const pending = a.authenticateToken(token);
    await read; // the lookup has the old row
    await b.setRole('heard@example.com', 'viewer');
    a.dropUser(user.id); // the bus announcement arrives while the lookup is still in flight
    hold = undefined;
    release();
    expect(await pending).toMatchObject({ role: 'member' }); // that request began before the change
    expect(await a.authenticateToken(token)).toMatchObject({ role: 'viewer' }); // not served from the cache
  });
});

describe.skipIf(!postgresAvailable())(
  'operator CLI context: the change is stored before Redis is waited for',
  () => {
    it('with Redis unreachable: set-role and set-plan are stored at once; close() gives up on Redis', async () => {
      const pgdb = await openTestPostgres();
      opened.push(pgdb);
      const deadPort = await closedPort();
      const context = await buildOperatorContext(
        loadConfig({
          DATABASE_URL: pgdb.url,
          REDIS_URL: `redis://127.0.0.1:${deadPort}`,
          LOG_LEVEL: 'silent',
        }),
        { hasher: fastHasher },
      );
      await context.accounts.createUser({ email: 'cli@example.com', role: 'member' });
      await context.accounts.setRole('cli@example.com', 'viewer');
      await context.accounts.setPlan('cli@example.com', 'pro');
      // Stored before any announcement could go out (Redis never answers): the database is the truth.
      const stored = await createKyselyAccountsRepository(tablesOf(pgdb.db)).findUserByEmail(
        'cli@example.com',
      );
      expect(stored).toMatchObject({ role: 'viewer', plan: 'pro' });
      await context.close(); // resolves: pending announcements are abandoned after their bounded wait
    }, 30_000);

    it.skipIf(!redisUrl())(
      'with Redis up: the change is announced on the bus for every replica',
      async () => {
        const pgdb = await openTestPostgres();
        opened.push(pgdb);
        const listener = new Redis(redisUrl()!);
        const seen: unknown[] = [];
        listener.on('message', (_channel: string, message: string) => seen.push(JSON.parse(message)));
        await listener.subscribe(`meridian:bus:${topics.tokenRevoked}`);
        try {
          const context = await buildOperatorContext(
            loadConfig({ DATABASE_URL: pgdb.url, REDIS_URL: redisUrl()!, LOG_LEVEL: 'silent' }),
            { hasher: fastHasher },
          );
          const { user } = await context.accounts.createUser({ email: 'bus@example.com', role: 'member' });
          await context.accounts.setRole('bus@example.com', 'viewer');
          await context.close(); // waits for the announcement
          await waitFor(
            async () => seen.find((m) => (m as { userId?: string }).userId === user.id),
            'the role change announced on the bus',
            10_000,
          );
        } finally {
          await listener.quit();
        }
      },
      30_000,
    );
  },
);

/** A local port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
