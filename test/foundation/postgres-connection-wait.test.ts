import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { openTestPostgres, postgresAvailable } from '../harness/db.ts';

/**
 * On the real PostgreSQL (pool of 5, connect timeout 1 s, statement timeout 1.25 s + 250 ms on the client):
 * a statement that waited for a connection has only what is left of the deadline (docs/adr/0046).
 */
describe.skipIf(!postgresAvailable())('the wait for a pooled connection counts against the statement', () => {
  let db: DbHandle;
  beforeAll(async () => {
    db = await openTestPostgres({ connectMs: 1_000, statementMs: 1_250 });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a 1 s statement that waited 0.8 s for its connection is answered 503, then the pool serves again', async () => {
    const sleep = (seconds: number) => sql`select pg_sleep(${seconds})`.execute(db.db);
    // Within the deadline on a free connection.
    await expect(sleep(1)).resolves.toBeDefined();
    // Every connection of the pool busy for 0.8 s; the sixth statement waits for one of them.
    const holders = Array.from({ length: 5 }, () => sleep(0.8));
    const waited = sleep(1).then(
      () => 'answered',
      (error: { code?: string; status?: number }) => `${error.status} ${error.code}`,
    );
    await Promise.all(holders);
    expect(await waited).toBe('503 storage_unavailable');
    // The connection whose statement was cut short comes back once the server has answered the cancel.
    await expect(sleep(0)).resolves.toBeDefined();
    await expect(Promise.all(Array.from({ length: 5 }, () => sleep(0.1)))).resolves.toHaveLength(5);
  });
});
