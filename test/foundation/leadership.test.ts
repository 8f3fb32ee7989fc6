import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { openDatabase, tablesOf } from '../../src/adapters/db/connect.ts';
import { assertLeaderTerm } from '../../src/adapters/db/leader-fence.ts';
import { postgresLeadership } from '../../src/adapters/leadership/postgres.ts';
import type { LeadershipTables } from '../../src/adapters/leadership/tables.ts';
import { type Job, type LeaderTerm, StaleLeaderError } from '../../src/shared/leadership.ts';
import { openTestDatabase, postgresAvailable } from '../harness/db.ts';
import { blockingDb, gate } from '../harness/leases.ts';
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

  it('a group of jobs is shared fairly: the first process takes all, a second one gets half handed over', async () => {
    const group = `grp-${Date.now()}`;
    const names = [0, 1, 2, 3].map((i) => `${group}:${i}`);
    const a = postgresLeadership(db(), { leaseMs: 1_000, holder: 'a' });
    const b = postgresLeadership(db(), { leaseMs: 1_000, holder: 'b' });
    const jobsA = names.map(countingJob);
    const jobsB = names.map(countingJob);
    const ga = a.fairShare(
      group,
      jobsA.map((j) => j.job),
    );
    const gb = b.fairShare(
      group,
      jobsB.map((j) => j.job),
    );
    // Each job runs in exactly one process (never both, never neither once settled).
    const runningPerJob = () => names.map((_, i) => jobsA[i]!.state.running + jobsB[i]!.state.running);
    try {
      await ga.start();
      await waitFor(() => ga.led().length === 4, 3_000);
      await gb.start();
      // The hand-over settles within a few leases; on a loaded machine a claim round can take longer.
      await waitFor(() => ga.led().length === 2 && gb.led().length === 2, 15_000);
      expect(ga.members()).toBe(2);
      expect(runningPerJob()).toEqual([1, 1, 1, 1]);
      expect([...ga.led(), ...gb.led()].sort()).toEqual(names);
      // The handed-over jobs were stopped in `a` before `b` was granted the next term.
      for (const name of gb.led()) {
        const i = names.indexOf(name);
        expect(jobsA[i]!.state.stops).toBe(1);
        expect(jobsB[i]!.state.terms.at(-1)!.term).toBe(jobsA[i]!.state.terms.at(-1)!.term + 1);
      }
      // Settled: several lease periods later nothing moved.
      const settled = gb.led();
      await new Promise((r) => setTimeout(r, 2_000));
      expect(gb.led()).toEqual(settled);
      expect(runningPerJob()).toEqual([1, 1, 1, 1]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a member that stops answering loses its share: the others take its jobs within a lease', async () => {
    const group = `grp-dead-${Date.now()}`;
    const names = [0, 1, 2, 3].map((i) => `${group}:${i}`);
    const cut = gate();
    // b has a pool of its own: its held answers keep its connections, not a's.
    const own = await openDatabase({ databaseUrl: (handle as DbHandle & { url: string }).url, poolSize: 3 });
    const a = postgresLeadership(db(), { leaseMs: 1_000, holder: 'a' });
    const b = postgresLeadership(blockingDb(tablesOf<LeadershipTables>(own.db), cut.held), {
      leaseMs: 1_000,
      holder: 'b',
    });
    const jobsA = names.map(countingJob);
    const jobsB = names.map(countingJob);
    const ga = a.fairShare(
      group,
      jobsA.map((j) => j.job),
    );
    const gb = b.fairShare(
      group,
      jobsB.map((j) => j.job),
    );
    try {
      await gb.start();
      await waitFor(() => gb.led().length === 4, 3_000);
      await ga.start();
      // The hand-over settles within a few leases; on a loaded machine a claim round can take longer.
      await waitFor(() => ga.led().length === 2 && gb.led().length === 2, 15_000);
      const lost = gb.led();
      cut.close(); // b's database answers are held from now on: no renewal, no presence, no release
      const cutAt = Date.now();
      await waitFor(() => ga.led().length === 4, 5_000);
      expect(Date.now() - cutAt).toBeLessThan(3_000); // a lease (1 s) plus the campaign and presence periods
      // b stopped its jobs on its own watchdog (half a lease) before a was granted their next terms.
      for (const name of lost) {
        const i = names.indexOf(name);
        expect(jobsB[i]!.state.running).toBe(0);
        expect(jobsA[i]!.state.terms.at(-1)!.term).toBeGreaterThan(jobsB[i]!.state.terms.at(-1)!.term);
        // A write of b's old term is refused by the leases table, even though b might still believe it leads.
        const old = { ...jobsB[i]!.state.terms.at(-1)!, current: () => true };
        await expect(assertLeaderTerm(handle.db, old)).rejects.toThrow(StaleLeaderError);
      }
    } finally {
      cut.open();
      await a.close();
      await b.close();
      await own.close();
    }
  });
});
