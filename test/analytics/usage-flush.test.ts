import { afterEach, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { USAGE_BUCKET_MS, createUsageCounter } from '../../src/modules/usage/counter.ts';
import { createKyselyUsageRepository } from '../../src/modules/usage/index.ts';
import type { UsageRepository } from '../../src/modules/usage/repository.ts';
import type { UsageTables } from '../../src/modules/usage/tables.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, insertAccount, openTestDatabase } from '../harness/db.ts';

const START = Date.UTC(2026, 0, 1);

/** The real repository, whose next `failures` writes fail as an unreachable database would. */
function flaky(repo: UsageRepository) {
  let failures = 0;
  return {
    failNext(n: number) {
      failures = n;
    },
    repo: {
      ...repo,
      add: async (...args: Parameters<UsageRepository['add']>) => {
        if (failures > 0) {
          failures--;
          throw new Error('storage unreachable');
        }
        return repo.add(...args);
      },
    } satisfies UsageRepository,
  };
}

describe.each(dbKinds())('usage counter flushing into %s after a failed flush', (kind) => {
  let handle: DbHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  async function setUp() {
    handle = await openTestDatabase(kind);
    await insertAccount(handle.db, 'acct', START);
    const stored = createKyselyUsageRepository(tablesOf<UsageTables>(handle.db));
    const clock = manualClock(START);
    const logged: string[] = [];
    const { repo, failNext } = flaky(stored);
    const counter = createUsageCounter({ repo, clock, flushMs: 60_000, log: (m) => logged.push(m) });
    return { stored, clock, logged, counter, failNext };
  }

  it('merges the kept counts with the new ones: the next flush stores both, and so do later ones', async () => {
    const { stored, counter, failNext, logged, clock } = await setUp();
    for (let i = 0; i < 3; i++) counter.record('acct', 'tok_1', 'GET', '/api/portfolio', false);
    counter.record('acct', 'tok_1', 'GET', '/api/portfolio', true);
    failNext(1);
    await counter.flush();
    expect(logged.filter((m) => m.includes('flush failed'))).toHaveLength(1);
    // The same account, endpoint and bucket again: the kept cell and the new one are one row in storage.
    for (let i = 0; i < 2; i++) counter.record('acct', 'tok_1', 'GET', '/api/portfolio', false);
    await counter.flush();
    expect(logged.filter((m) => m.includes('flush failed'))).toHaveLength(1);
    expect(await stored.totals('acct', START)).toEqual([
      { endpoint: 'GET /api/portfolio', client: 'tok_1', requests: 6, rateLimited: 1 },
    ]);
    // Later flushes keep working.
    clock.advance(USAGE_BUCKET_MS);
    counter.record('acct', 'tok_1', 'GET', '/api/portfolio', false);
    await counter.flush();
    expect(await stored.totals('acct', START)).toEqual([
      { endpoint: 'GET /api/portfolio', client: 'tok_1', requests: 7, rateLimited: 1 },
    ]);
    expect(logged.filter((m) => m.includes('flush failed'))).toHaveLength(1);
  });

  it('after two failed flushes in a row, the shutdown flush stores everything once', async () => {
    const { stored, counter, failNext } = await setUp();
    counter.start();
    failNext(2);
    counter.record('acct', 'tok_1', 'GET', '/x', false);
    await counter.flush();
    counter.record('acct', 'tok_1', 'GET', '/x', false);
    counter.record('acct', 'tok_1', 'POST', '/y', false);
    await counter.flush();
    counter.record('acct', 'tok_1', 'GET', '/x', true);
    await counter.stop();
    const totals = await stored.totals('acct', START);
    expect(totals.sort((a, b) => a.endpoint.localeCompare(b.endpoint))).toEqual([
      { endpoint: 'GET /x', client: 'tok_1', requests: 3, rateLimited: 1 },
      { endpoint: 'POST /y', client: 'tok_1', requests: 1, rateLimited: 0 },
    ]);
    expect((await counter.totals('acct')).requests).toBe(4);
  });

  it('counts the current window per second: two replicas flushing into the same rows, read back on either', async () => {
    const { stored, clock, counter: a, failNext } = await setUp();
    const b = createUsageCounter({ repo: stored, clock, flushMs: 60_000 });
    clock.advance(250);
    for (let i = 0; i < 4; i++) a.record('acct', 'tok_1', 'GET', '/api/portfolio', false);
    for (let i = 0; i < 3; i++) b.record('acct', 'tok_1', 'GET', '/api/portfolio', false);
    b.record('acct', 'tok_1', 'GET', '/api/portfolio', true);
    b.record('acct', 'console', 'GET', '/api/account', false);
    failNext(1);
    await a.flush(); // fails: kept, with its seconds
    await b.flush();
    expect((await a.currentWindow('acct')).byEndpoint).toEqual([
      { endpoint: 'GET /api/portfolio', requests: 8, rateLimited: 1 },
      { endpoint: 'GET /api/account', requests: 1, rateLimited: 0 },
    ]);
    await a.flush();
    expect(await stored.totals('acct', START, 'second')).toEqual(
      expect.arrayContaining([
        { endpoint: 'GET /api/portfolio', client: 'tok_1', requests: 8, rateLimited: 1 },
        { endpoint: 'GET /api/account', client: 'console', requests: 1, rateLimited: 0 },
      ]),
    );
    expect((await b.currentWindow('acct')).requests).toBe(9);
    clock.advance(60_750); // 61 s: the second [0, 1 s) no longer overlaps the window
    expect((await b.currentWindow('acct')).requests).toBe(0);
    expect((await b.totals('acct')).requests).toBe(9);
  });
});
