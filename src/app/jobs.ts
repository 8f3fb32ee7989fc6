import type { Job } from '../shared/leadership.ts';

export type { Job };

/** Starts jobs in order; stops them in reverse. */
export function jobRunner(jobs: Job[]) {
  const started: Job[] = [];
  return {
    async start() {
      for (const job of jobs) {
        await job.start();
        started.push(job);
      }
    },
    async stop() {
      while (started.length)
        await started
          .pop()!
          .stop()
          .catch(() => {});
    },
  };
}
