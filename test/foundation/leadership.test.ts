import { describe, expect, it } from 'vitest';
import { postgresLeadership } from '../../src/adapters/leadership/postgres.ts';
import type { Job } from '../../src/app/jobs.ts';
import { postgresAvailable } from '../harness/db.ts';
import { inject } from 'vitest';

const waitFor = async (condition: () => boolean, timeoutMs: number) => {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

function countingJob(name: string) {
  const state = { running: 0, starts: 0, stops: 0 };
  const job: Job = {
    name,
    start: async () => {
      state.running++;
      state.starts++;
    },
    stop: async () => {
      state.running--;
      state.stops++;
    },
  };
  return { job, state };
}

describe.runIf(postgresAvailable())('job leadership on real PostgreSQL', () => {
  it('runs a job in exactly one of several workers and fails over when the leader stops', async () => {
    const url = inject('postgresAdminUrl')!;
    const workers = [0, 1, 2].map(() => postgresLeadership(url, { intervalMs: 100 }));
    const jobs = workers.map(() => countingJob(`test-job-${Date.now()}`));
    // Same name → same lock.
    for (const j of jobs) j.job.name = jobs[0]!.job.name;
    const wrapped = workers.map((w, i) => w.leaderOnly(jobs[i]!.job));
    try {
      await Promise.all(wrapped.map((w) => w.start()));
      await waitFor(() => wrapped.some((w) => w.isLeader()), 3_000);
      await new Promise((r) => setTimeout(r, 300)); // several campaign rounds
      expect(wrapped.filter((w) => w.isLeader())).toHaveLength(1);
      expect(jobs.reduce((n, j) => n + j.state.running, 0)).toBe(1);

      const leader = wrapped.findIndex((w) => w.isLeader());
      await wrapped[leader]!.stop();
      expect(jobs[leader]!.state.running).toBe(0);
      await waitFor(() => wrapped.some((w, i) => i !== leader && w.isLeader()), 3_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(jobs.reduce((n, j) => n + j.state.running, 0)).toBe(1);
    } finally {
      for (const w of workers) await w.close();
    }
  });

  it('stops the job when the leader loses its database session, and one process leads again', async () => {
    const url = inject('postgresAdminUrl')!;
    const name = `test-lost-${Date.now()}`;
    const a = postgresLeadership(url, { intervalMs: 100 });
    const b = postgresLeadership(url, { intervalMs: 100 });
    const ja = countingJob(name);
    const jb = countingJob(name);
    const wa = a.leaderOnly(ja.job);
    const wb = b.leaderOnly(jb.job);
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await wa.start();
      await waitFor(() => wa.isLeader(), 3_000);
      await wb.start();
      expect(wb.isLeader()).toBe(false);
      // Kill the leader's session from outside, as a network loss or a crashed process would.
      await admin.query(
        `select pg_terminate_backend(l.pid) from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.granted and a.application_name = $1`,
        [`meridian-leader:${name}`],
      );
      // The old leader stops its job at once; then exactly one process (either: the old one reconnects and
      // campaigns again like any standby) leads.
      await waitFor(() => ja.state.stops === 1, 5_000);
      await waitFor(() => wa.isLeader() !== wb.isLeader(), 5_000);
      await new Promise((r) => setTimeout(r, 300));
      expect([wa.isLeader(), wb.isLeader()].filter(Boolean)).toHaveLength(1);
      expect(ja.state.running + jb.state.running).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await admin.end();
    }
  });
});
