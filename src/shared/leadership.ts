import type { Job } from '../app/jobs.ts';

/**
 * Leader election port. In scaled mode several worker processes run; a job that must run once per cluster
 * (market ingestion, the chain indexer, the model refresh) is wrapped so that it runs only in the process
 * holding that job's leadership, and starts elsewhere when the holder dies (failover).
 */
export interface Leadership {
  /** Wraps a job: start() campaigns in the background; the job runs only while leading. */
  leaderOnly(job: Job): Job & { isLeader(): boolean };
  close(): Promise<void>;
}
