import { type Job, type Leadership, type SharedJobs, soleTerm } from '../../shared/leadership.ts';

/** Embedded mode: one process owns the store, so it always leads (term 0: nothing to fence). */
export function singleProcessLeadership(): Leadership {
  const leaderOnly = (job: Job) => {
    let leading = false;
    return {
      name: job.name,
      isLeader: () => leading,
      start: async () => {
        await job.start(soleTerm(job.name));
        leading = true;
      },
      stop: async () => {
        leading = false;
        await job.stop();
      },
    };
  };
  return {
    leaderOnly,
    /** The only process leads every job of the group. */
    fairShare(group: string, jobs: Job[]): SharedJobs {
      const wrapped = jobs.map(leaderOnly);
      return {
        name: group,
        led: () => wrapped.filter((w) => w.isLeader()).map((w) => w.name),
        members: () => 1,
        async start() {
          for (const w of wrapped) await w.start();
        },
        async stop() {
          for (const w of wrapped.toReversed()) await w.stop();
        },
      };
    },
    close: async () => {},
  };
}
