import type { Job } from '../shared/leadership.ts';
import { logAndIgnore, type WarnLog } from '../shared/log-and-ignore.ts';

export type { Job };

/** Starts jobs in order; stops them in reverse. */
export function jobRunner(jobs: Job[], log: WarnLog, onStarting?: (name: string) => void) {
  const started: Job[] = [];
  return {
    async start() {
      for (const job of jobs) {
        onStarting?.(job.name);
        await job.start();
        started.push(job);
      }
    },
    async stop() {
      while (started.length)
        await started
          .pop()!
          .stop()
          .catch(logAndIgnore(log, 'a job failed to stop; the others are stopped still'));
    },
  };
}
