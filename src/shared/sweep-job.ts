import type { Job, LeaderTerm } from './leadership.ts';
import type { PeriodicJob } from './periodic-job.ts';

/**
 * Housekeeping (pruning, retention) as a job: the first sweep runs at once but in the background — a start
 * does not wait on deleting old rows —, then one every period; `stop` waits for a sweep in flight. `onTerm`
 * receives the leader's term, which the sweep's writes carry.
 */
export function sweepJob(sweep: PeriodicJob, onTerm?: (term: LeaderTerm | undefined) => void): Job {
  return {
    name: sweep.name,
    start: async (term) => {
      onTerm?.(term);
      void sweep.runNow(); // never rejects: a failed sweep is logged and counted, and the next one retries
      sweep.start();
    },
    stop: () => sweep.stop(),
  };
}
