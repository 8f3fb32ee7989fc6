import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Job, LeaderTerm, Leadership, SharedJobs } from '../../shared/leadership.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
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

/** What a group's campaign (`fairShare`) tells each of its jobs' campaigns. */
interface ShareGate {
  /** Asked before a standby claims: a ticket (call it when the claim is over) or undefined (at the share). */
  admit(): (() => void) | undefined;
}

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
    // A look without a lock first: a live lease is the common case, and locking its row (for update, as a
    // takeover must) only to find it live would queue this standby behind the leader's fenced writes, and the
    // leader's next renewal behind this standby.
    const live = await sql<{ live: boolean }>`
      select expires_at >= ${nowMs} as live from leader_leases where job = ${job}`.execute(db);
    if (live.rows[0]?.live) return undefined;
    return db.transaction().execute(async (trx) => {
      // Waits for the fenced writes in flight (they key-share-lock the row; adapters/db/leader-fence.ts): a write
      // of the expiring term commits before the next term exists, or sees it and is refused.
      await sql`select 1 from leader_leases where job = ${job} for update`.execute(trx);
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

  /** One job's campaign: standby → leader (claim) → renewals → stop (lost, handed over or shutdown). */
  function campaignFor(job: Job, gate?: ShareGate) {
    let term: LeaderTerm | undefined;
    let confirmedSentAt = 0;
    let stopped = true;
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
      if (stopped) return;
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
        const ticket = gate?.admit();
        if (gate && !ticket) return; // this process leads its fair share of the group already
        let granted: number | undefined;
        try {
          granted = await claim(job.name);
        } finally {
          ticket?.();
        }
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
      }
    };
    // One round at a time: a slow database must not pile them up.
    const campaigning = periodicJob({ name: `leadership:${job.name}`, everyMs: timing.renewMs, run: tick });

    const campaign = async () => {
      stopped = true;
      await campaigning.stop();
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
      /** Stops the job and then releases its lease, so that another process of the group takes it over. */
      async handOver(): Promise<void> {
        const held = term;
        if (!held) return;
        await abdicate("over this process's fair share of its group: handed over");
        await release(job.name, held.term).catch((error: Error) => {
          options.log?.warn({ job: job.name, error: error.message }, 'lease release at hand-over failed');
        });
      },
      async start() {
        stopped = false;
        campaigns.add(campaign);
        await campaigning.runNow();
        campaigning.start();
      },
      async stop() {
        campaigns.delete(campaign);
        await campaign();
      },
    };
  }

  /**
   * A group's campaign. Each process of the group keeps a presence row in `leader_leases` (`<group>@<holder>`,
   * renewed every `renewMs`, lasting one lease; term 0: it fences nothing) and counts the live ones: the group's
   * members. Its share is ceil(jobs / members): its standbys claim only while it leads fewer (a ticket per claim
   * in flight, so concurrent campaigns cannot overshoot), and when a new member lowers the share the surplus is
   * handed over (stopped, then released). A dead member's presence and leases expire within a lease; the others'
   * share then grows and they claim its jobs.
   */
  function fairShare(group: string, jobs: Job[]): SharedJobs {
    const prefix = `${group}@`;
    const presence = `${prefix}${holder}`;
    let members = 1;
    let claiming = 0;
    let stopped = true;
    let beats = 0;
    const share = () => Math.ceil(jobs.length / Math.max(1, members));
    const wrapped = jobs.map((job) =>
      campaignFor(job, {
        admit() {
          if (stopped || wrapped.filter((w) => w.isLeader()).length + claiming >= share()) return undefined;
          claiming++;
          let done = false;
          return () => {
            if (done) return;
            done = true;
            claiming--;
          };
        },
      }),
    );
    const beat = async () => {
      try {
        await sql`
          insert into leader_leases (job, term, holder, expires_at)
          values (${presence}, 0, ${holder}, ${nowMs} + ${timing.leaseMs})
          on conflict (job) do update set holder = excluded.holder, expires_at = excluded.expires_at`.execute(
          db,
        );
        const live = await sql<{ n: number }>`
          select count(*)::int as n from leader_leases
          where left(job, ${prefix.length}) = ${prefix} and expires_at > ${nowMs}`.execute(db);
        if (stopped) return;
        members = Math.max(1, Number(live.rows[0]?.n ?? 1));
        const leading = wrapped.filter((w) => w.isLeader());
        const surplus = leading.slice(share());
        if (surplus.length)
          options.log?.info(
            { group, members, share: share(), handedOver: surplus.map((w) => w.name) },
            'over the fair share of the group: handing jobs over',
          );
        for (const w of surplus) void w.handOver();
        // Presence rows of members gone long ago are removed now and then (they count for nothing once expired).
        if (++beats % 40 === 0)
          await sql`
            delete from leader_leases
            where left(job, ${prefix.length}) = ${prefix} and expires_at < ${nowMs} - ${10 * timing.leaseMs}`.execute(
            db,
          );
      } catch (error) {
        // The member count stays as last known; a leader relies on each job's own watchdog.
        options.log?.info({ group, error: (error as Error).message }, 'group presence not renewed');
      }
    };
    // One presence round at a time (a slow database must not pile them up).
    const presenceBeat = periodicJob({ name: `leadership:${group}`, everyMs: timing.renewMs, run: beat });
    const groupStop = async () => {
      stopped = true;
      await presenceBeat.stop();
      for (const w of wrapped.toReversed()) await w.stop();
      await sql`delete from leader_leases where job = ${presence}`.execute(db).catch((error: Error) => {
        // The presence then expires on its own within a lease.
        options.log?.warn({ group, error: error.message }, 'group presence not removed at shutdown');
      });
    };
    return {
      name: group,
      led: () => wrapped.filter((w) => w.isLeader()).map((w) => w.name),
      members: () => members,
      async start() {
        stopped = false;
        campaigns.add(groupStop);
        await presenceBeat.runNow();
        for (const w of wrapped) await w.start();
        presenceBeat.start();
      },
      async stop() {
        campaigns.delete(groupStop);
        await groupStop();
      },
    };
  }

  return {
    leaderOnly: (job: Job) => campaignFor(job),
    fairShare,
    async close() {
      for (const stop of [...campaigns]) await stop();
      campaigns.clear();
    },
  };
}
