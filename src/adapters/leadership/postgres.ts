import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Job, LeaderTerm, Leadership } from '../../shared/leadership.ts';
import type { LeadershipTables } from './tables.ts';

interface LeaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LeaseTiming {
  /** How long a granted or renewed lease lasts (database clock). */
  leaseMs: number;
  /** Renewal (leader) and campaign (standby) period: a quarter lease. */
  renewMs: number;
  /** A leader that has not confirmed a renewal sent within this long stops its job: half a lease. */
  deadlineMs: number;
}

const leaseTiming = (leaseMs: number): LeaseTiming => ({
  leaseMs,
  renewMs: Math.max(50, Math.floor(leaseMs / 4)),
  deadlineMs: Math.floor(leaseMs / 2),
});

const nowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * Leadership as leases with terms in PostgreSQL (`leader_leases`, one row per job).
 *
 * - A standby campaigns every `renewMs`: it takes the row only when the lease has expired on the database
 *   clock, incrementing the term (and recording it in `leader_terms`).
 * - The leader renews every `renewMs`. It counts its lease from the moment it *sent* the renewal (the database
 *   extends it from a later instant), and stops its job when no renewal sent within the last `deadlineMs` was
 *   confirmed — a timer, so a frozen database or a blackholed connection cannot hold it. Since
 *   `deadlineMs` (½ lease) < `leaseMs`, the job is stopped while the old lease still runs: before any
 *   standby can be granted the next term. Worst-case overlap is 0 as long as stopping takes less than the
 *   other half lease; writes are fenced by term anyway (adapters/db/leader-fence.ts).
 * - Shutdown releases the lease (expires it now), so a standby takes over within one campaign period.
 */
export function postgresLeadership(
  db: Kysely<LeadershipTables>,
  options: { leaseMs?: number; log?: LeaderLog; holder?: string } = {},
): Leadership {
  const timing = leaseTiming(options.leaseMs ?? 10_000);
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const campaigns = new Set<() => Promise<void>>();

  async function claim(job: string): Promise<number | undefined> {
    return db.transaction().execute(async (trx) => {
      const granted = await sql<{ term: number }>`
        insert into leader_leases (job, term, holder, expires_at)
        values (${job}, 1, ${holder}, ${nowMs} + ${timing.leaseMs})
        on conflict (job) do update
          set term = leader_leases.term + 1, holder = excluded.holder, expires_at = excluded.expires_at
          where leader_leases.expires_at < ${nowMs}
        returning term`.execute(trx);
      const term = granted.rows[0]?.term;
      if (term === undefined) return undefined;
      await trx
        .insertInto('leader_terms')
        .values({ job, term, holder, started_at: sql<number>`${nowMs}` as unknown as number })
        .execute();
      return Number(term);
    });
  }

  async function renew(job: string, term: number): Promise<boolean> {
    const renewed = await sql`
      update leader_leases set expires_at = ${nowMs} + ${timing.leaseMs}
      where job = ${job} and term = ${term} and holder = ${holder} and expires_at > ${nowMs}`.execute(db);
    return Number(renewed.numAffectedRows ?? 0) === 1;
  }

  async function release(job: string, term: number): Promise<void> {
    await sql`update leader_leases set expires_at = 0 where job = ${job} and term = ${term} and holder = ${holder}`.execute(
      db,
    );
  }

  return {
    leaderOnly(job: Job) {
      let term: LeaderTerm | undefined;
      let confirmedSentAt = 0;
      let stopped = true;
      let inFlight = false;
      let timer: NodeJS.Timeout | undefined;
      let watchdog: NodeJS.Timeout | undefined;
      let transition: Promise<void> = Promise.resolve();

      const leading = () => term !== undefined;

      const abdicate = (reason: string) => {
        const lost = term;
        if (!lost) return transition;
        term = undefined; // current() is false from here on: fenced writes are refused locally at once
        if (watchdog) clearTimeout(watchdog);
        options.log?.warn({ job: job.name, term: lost.term, reason }, 'leadership lost; job stopped');
        transition = transition.then(() =>
          job.stop().catch((error: Error) => {
            options.log?.warn(
              { job: job.name, error: error.message },
              'job stop failed after losing leadership',
            );
          }),
        );
        return transition;
      };

      const armWatchdog = () => {
        if (watchdog) clearTimeout(watchdog);
        const remaining = confirmedSentAt + timing.deadlineMs - performance.now();
        watchdog = setTimeout(() => void abdicate('lease not confirmed in time'), Math.max(0, remaining));
        watchdog.unref?.();
      };

      const tick = async () => {
        if (stopped || inFlight) return;
        inFlight = true;
        const sentAt = performance.now();
        try {
          if (term) {
            const held = term;
            const ok = await renew(job.name, held.term);
            if (term !== held) return; // abdicated meanwhile
            if (!ok) {
              await abdicate('lease taken over');
              return;
            }
            confirmedSentAt = sentAt;
            armWatchdog();
            return;
          }
          await transition; // never start again while the previous stop is still running
          const granted = await claim(job.name);
          if (granted === undefined || stopped) {
            if (granted !== undefined) await release(job.name, granted);
            return;
          }
          confirmedSentAt = sentAt;
          const mine: LeaderTerm = {
            job: job.name,
            term: granted,
            current: () => term === mine && performance.now() - confirmedSentAt < timing.deadlineMs,
          };
          term = mine;
          armWatchdog();
          options.log?.info({ job: job.name, term: granted }, 'leadership acquired; job starting');
          transition = transition.then(() =>
            job.start(mine).catch((error: Error) => {
              options.log?.warn({ job: job.name, error: error.message }, 'job failed to start; releasing');
              if (term === mine)
                void abdicate('job failed to start')
                  .then(() => release(job.name, granted))
                  .catch((releaseError: Error) => {
                    // The lease then simply expires; a standby (or this process) claims it afterwards.
                    options.log?.warn({ job: job.name, error: releaseError.message }, 'lease release failed');
                  });
            }),
          );
          // Not awaited: renewals must go on while a slow job starts.
        } catch (error) {
          // A standby that cannot reach the database simply tries again; a leader relies on its watchdog.
          if (!term) options.log?.info({ job: job.name, error: (error as Error).message }, 'campaign failed');
        } finally {
          inFlight = false;
        }
      };

      const campaign = async () => {
        stopped = true;
        if (timer) clearInterval(timer);
        const held = term;
        await abdicate('shutdown');
        await transition;
        if (held)
          await release(job.name, held.term).catch((error: unknown) => {
            // The lease then runs out on its own; another worker takes over after it.
            options.log?.warn(
              { job: job.name, error: error instanceof Error ? error.message : String(error) },
              'releasing the lease at shutdown failed; it expires on its own',
            );
          });
      };

      return {
        name: job.name,
        isLeader: leading,
        async start() {
          stopped = false;
          campaigns.add(campaign);
          await tick();
          timer = setInterval(() => void tick(), timing.renewMs);
          timer.unref?.();
        },
        async stop() {
          campaigns.delete(campaign);
          await campaign();
        },
      };
    },
    async close() {
      for (const stop of [...campaigns]) await stop();
      campaigns.clear();
    },
  };
}
