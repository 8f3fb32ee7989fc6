import { afterEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type PortfolioRepository,
  type PortfolioTables,
  createKyselyPortfolioRepository,
  createPortfolioService,
} from '../../src/modules/portfolio/index.ts';
import { AppError } from '../../src/shared/errors.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, insertAccount, openTestDatabase } from '../harness/db.ts';

const START = Date.UTC(2026, 0, 1);

/**
 * The real repository, where the next import fails as storage being unavailable does (a 503) and the next
 * `failReleases` attempts to release a key fail too (the storage still down at that moment).
 */
function flaky(repo: PortfolioRepository) {
  const state = { failImport: false, failReleases: 0, releaseAttempts: 0, releasesDone: 0 };
  const wrapped: PortfolioRepository = {
    ...repo,
    async applyImport(write) {
      if (state.failImport) {
        state.failImport = false;
        throw new AppError('storage_unavailable', 'storage is unavailable');
      }
      return repo.applyImport(write);
    },
    async releaseKey(...args) {
      state.releaseAttempts++;
      if (state.failReleases > 0) {
        state.failReleases--;
        throw new Error('connection terminated');
      }
      await repo.releaseKey(...args);
      state.releasesDone++;
    },
  };
  return { state, repo: wrapped };
}

describe.each(dbKinds())('an idempotency key whose release failed after a 503 (%s)', (kind) => {
  let handle: DbHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  async function setUp() {
    handle = await openTestDatabase(kind);
    await insertAccount(handle.db, 'acct', START);
    const stored = createKyselyPortfolioRepository(tablesOf<PortfolioTables>(handle.db));
    // The clock stands still: a key is never "stale" (60 s) during these tests.
    const clock = manualClock(START);
    const replica = () => {
      const { state, repo } = flaky(stored);
      const service = createPortfolioService({
        repo,
        clock,
        prices: { quote: () => null },
        extraAssets: () => ['BTC'],
        releaseRetryMs: 200,
      });
      return { state, service };
    };
    return { a: replica(), b: replica() };
  }

  const request = {
    accountId: 'acct',
    body: { kind: 'json' as const, rows: [{ asset: 'BTC', quantity: '1' }], schemaProblems: [] },
    dryRun: false,
    idempotencyKey: 'retry-me',
  };

  it('the retry on the same replica runs the request instead of answering 409', async () => {
    const { a } = await setUp();
    a.state.failImport = true;
    a.state.failReleases = 1;
    await expect(a.service.importRows(request)).rejects.toMatchObject({ code: 'storage_unavailable' });
    const retry = await a.service.importRows(request);
    expect(retry).toMatchObject({ status: 201, replayed: false });
    expect(JSON.parse(retry.body)).toMatchObject({ inserted: 1 });
    const replay = await a.service.importRows(request);
    expect(replay).toEqual({ ...retry, replayed: true });
  });

  it('a retry reaching another replica runs within seconds, not after the 60 s staleness', async () => {
    const { a, b } = await setUp();
    a.state.failImport = true;
    a.state.failReleases = 1;
    await expect(a.service.importRows(request)).rejects.toMatchObject({ code: 'storage_unavailable' });
    const started = Date.now();
    let answer: Awaited<ReturnType<typeof b.service.importRows>> | undefined;
    while (!answer && Date.now() - started < 5_000) {
      try {
        answer = await b.service.importRows(request);
      } catch (error) {
        expect(error).toMatchObject({ code: 'idempotency_key_in_use' });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(answer).toMatchObject({ status: 201, replayed: false });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.state.releaseAttempts).toBeGreaterThanOrEqual(2);
  });

  it('a late release never removes the claim of a request that took the key over', async () => {
    const { a } = await setUp();
    a.state.failImport = true;
    a.state.failReleases = 1;
    const release = a.state;
    const before = release.releaseAttempts;
    await expect(a.service.importRows(request)).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(release.releaseAttempts).toBe(before + 1);
    // The first claim is gone some other way (as a stale takeover deletes it), and another request claims
    // the key and is still running.
    await sql`delete from idempotency_keys where key = 'retry-me'`.execute(handle!.db);
    await sql`insert into idempotency_keys (account_id, key, fingerprint, state, status, body, created_at, expires_at)
              values ('acct', 'retry-me', 'other', 'running', null, null, ${START + 1}, ${START + 86_400_000})`.execute(
      handle!.db,
    );
    // a retries its release in the background: it must leave the other request's claim alone.
    await vi.waitFor(() => expect(release.releasesDone).toBeGreaterThanOrEqual(1), 5_000);
    expect(release.releaseAttempts).toBeGreaterThanOrEqual(before + 2);
    const { rows } = await sql<{ created_at: string | number }>`
      select created_at from idempotency_keys where key = 'retry-me'`.execute(handle!.db);
    expect(rows.map((r) => Number(r.created_at))).toEqual([START + 1]);
  });
});
