import { type Leadership, soleTerm } from '../../shared/leadership.ts';

/** Embedded mode: one process owns the store, so it always leads (term 0: nothing to fence). */
export function singleProcessLeadership(): Leadership {
  return {
    leaderOnly: (job) => {
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
    },
    close: async () => {},
  };
}
