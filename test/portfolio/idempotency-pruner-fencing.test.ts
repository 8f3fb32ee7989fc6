import { describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { type PortfolioTables, createKyselyPortfolioRepository } from '../../src/modules/portfolio/index.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { dbKinds, insertAccount, openTestDatabase } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';

const T0 = Date.UTC(2026, 0, 1);
const JOB = 'idempotency-keys-pruner';

describe.each(dbKinds())('idempotency key pruning on %s', (kind) => {
  it('a prune from a stale leadership term is refused and deletes nothing; the current term prunes', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const db = tablesOf<PortfolioTables>(handle.db);
      const repo = createKyselyPortfolioRepository(db);
      await insertAccount(handle.db, 'usr_fence', T0);
      const claim = {
        accountId: 'usr_fence',
        key: 'k1',
        fingerprint: 'f',
        now: T0,
        ttlMs: 1_000,
        staleMs: 500,
      };
      expect(await repo.claimKey(claim)).toMatchObject({ kind: 'claimed' });
      const keys = async () =>
        Number(
          (
            await db
              .selectFrom('idempotency_keys')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirst()
          )?.n,
        );
      await holdLease(handle.db, JOB, 3);
      await expect(repo.pruneKeys(T0 + 2_000, believedTerm(JOB, 2))).rejects.toThrow(StaleLeaderError);
      expect(await keys()).toBe(1);
      expect(await repo.pruneKeys(T0 + 2_000, believedTerm(JOB, 3))).toBe(1);
      expect(await keys()).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
