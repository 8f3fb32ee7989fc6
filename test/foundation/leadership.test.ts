import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { assertLeaderTerm } from '../../src/adapters/db/leader-fence.ts';
import { postgresLeadership } from '../../src/adapters/leadership/postgres.ts';
import type { LeadershipTables } from '../../src/adapters/leadership/tables.ts';
import { type Job, type LeaderTerm, StaleLeaderError } from '../../src/shared/leadership.ts';
import { openTestDatabase, postgresAvailable } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

const waitFor = (condition: () => boolean, timeoutMs: number) =>
  waitUntil(condition, 'the leadership condition', timeoutMs);

function countingJob(name: string) {
  const state = { running: 0, starts: 0, stops: 0, terms: [] as LeaderTerm[] };
  const job: Job = {
    name,
    start: async (term) => {
      state.running++;
      state.starts++;
      if (term) state.terms.push(term);
    },
    stop: async () => {
      state.running--;
      state.stops++;
    },
  };
  return { job, state };
}

describe.runIf(postgresAvailable())('job leadership (leases with terms) on real PostgreSQL', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase('postgres');
  });
  afterAll(async () => {
    await handle?.close();
  });
  const db = () => tablesOf<LeadershipTables>(handle.db);

  it('runs a job in exactly one of several workers and fails over when the leader stops', async () => {
    const name = `job-${Date.now()}`;
    const workers = [0, 1, 2].map((i) => postgresLeadership(db(), { leaseMs: 1_000, holder: `w${i}` }));
    const jobs = workers.map(() => countingJob(name));
    const wrapped = workers.map((w, i) => w.leaderOnly(jobs[i]!.job));
    try {
      await Promise.all(wrapped.map((w) => w.start()));
      await waitFor(() => jobs.some((j) => j.state.running === 1), 3_000);
      // Several renewal rounds (each moves the lease's expiry on), with the standbys campaigning meanwhile.
      const expiry = async () =>
        Number(
          (
            await db()
              .selectFrom('leader_leases')
              .select('expires_at')
              .where('job', '=', name)
              .executeTakeFirstOrThrow()
          ).expires_at,
        );
      for (let round = 0; round < 2; round++) {
        const before = await expiry();
        await waitUntil(async () => (await expiry()) > before, 'a lease renewal', 3_000);
      }
      expect(wrapped.filter((w) => w.isLeader())).toHaveLength(1);
      expect(jobs.reduce((n, j) => n + j.state.running, 0)).toBe(1);

      const leader = wrapped.findIndex((w) => w.isLeader());
      await wrapped[leader]!.stop();
      expect(jobs[leader]!.state.running).toBe(0);
      await waitFor(() => jobs.some((j, i) => i !== leader && j.state.running === 1), 3_000);
      expect(jobs.reduce((n, j) => n + j.state.running, 0)).toBe(1);
      const next = jobs.find((j) => j.state.running === 1)!;
      expect(next.state.terms.at(-1)!.term).toBe(jobs[leader]!.state.terms.at(-1)!.term + 1);
      const history = await db().selectFrom('leader_terms').selectAll().where('job', '=', name).execute();
      expect(history.map((h) => Number(h.term))).toEqual([1, 2]);
    } finally {
      for (const w of workers) await w.close();
    }
  });

  it('a leader that cannot confirm its lease stops before the standby is granted the next term', async () => {
    const name = `cut-${Date.now()}`;
    const events: string[] = [];
    // The leader's renewals are held (as by a frozen server or a blackholed link) by wrapping its executor.
    const renewals = gate();
    const a = postgresLeadership(blockingDb(db(), renewals.held), { leaseMs: 1_000, holder: 'a' });
    const b = postgresLeadership(db(), { leaseMs: 1_000, holder: 'b' });
    const job = (who: string): Job => ({
      name,
      start: async () => {
        events.push(`${who}:start`);
      },
      stop: async () => {
        events.push(`${who}:stop`);
      },
    });
    const wa = a.leaderOnly(job('a'));
    const wb = b.leaderOnly(job('b'));
    try {
      await wa.start();
      await waitFor(() => events.includes('a:start'), 3_000);
      await wb.start();
      renewals.close();
      await waitFor(() => events.includes('b:start'), 5_000);
      expect(events).toEqual(['a:start', 'a:stop', 'b:start']);
    } finally {
      renewals.open();
      await a.close();
      await b.close();
    }
  });

  it('refuses a write carrying a term that is no longer current', async () => {
    const name = `fence-${Date.now()}`;
    const a = postgresLeadership(db(), { leaseMs: 1_000, holder: 'a' });
    const { job, state } = countingJob(name);
    const wa = a.leaderOnly(job);
    try {
      await wa.start();
      await waitFor(() => state.terms.length === 1, 3_000);
      const term = state.terms[0]!;
      await assertLeaderTerm(handle.db, term);
      // Another process takes over (the lease forced to expire and claimed with term + 1).
      await db()
        .updateTable('leader_leases')
        .set({ term: term.term + 1, holder: 'other' })
        .where('job', '=', name)
        .execute();
      const stale = { ...term, current: () => true }; // even a leader that still believes it leads
      await expect(assertLeaderTerm(handle.db, stale)).rejects.toThrow(StaleLeaderError);
      await waitFor(() => state.stops === 1, 3_000); // its next renewal finds the lease gone
    } finally {
      await a.close();
    }
  });
});

/** Open until `close()`; while closed, `held()` is a promise that settles when `open()` is called. */
function gate() {
  let closed: { promise: Promise<void>; open: () => void } | undefined;
  return {
    held: () => closed?.promise,
    close() {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => {
        open = resolve;
      });
      closed ??= { promise, open };
    },
    open() {
      closed?.open();
      closed = undefined;
    },
  };
}

/** A Kysely whose results are held while `held()` gives a promise — the leader's view of a frozen database. */
function blockingDb<T>(
  db: import('kysely').Kysely<T>,
  held: () => Promise<void> | undefined,
): import('kysely').Kysely<T> {
  return db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await held();
      return args.result;
    },
  });
}
