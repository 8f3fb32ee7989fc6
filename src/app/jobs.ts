/** A background job the worker role runs: started once, stopped on shutdown. */
export interface Job {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

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
