/** A background job: started once (with its leadership term when leader-elected), stopped on shutdown. */
export interface Job {
  name: string;
  start(term?: LeaderTerm): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What a leader-elected job is given when it starts: its term, a number that grows with every change of
 * leader. Writes the job makes carry it: a database write runs `assertLeaderTerm` (adapters/db/leader-fence)
 * inside its transaction, so a write from a term that is no longer current is refused; a bus message puts
 * `term` in its payload, so followers ignore messages older than the newest term they have seen.
 */
export interface LeaderTerm {
  job: string;
  /** 0 in embedded mode (one process, always the leader, nothing to fence). */
  term: number;
  /** False as soon as this process may no longer lead (its lease could not be confirmed in time). */
  current(): boolean;
}

/** The single-process term: always current. */
export const soleTerm = (job: string): LeaderTerm => ({ job, term: 0, current: () => true });

/** Thrown by a fenced write whose term is no longer the job's current term. */
export class StaleLeaderError extends Error {
  constructor(job: string, term: number) {
    super(`leadership of ${job} moved past term ${term}; the write was refused`);
    this.name = 'StaleLeaderError';
  }
}

/**
 * The part of write fencing every store shares: a term its holder already knows is lost is refused
 * (StaleLeaderError). Term 0 (embedded, one process) has nothing to fence. The database adapter adds the check
 * of the lease row inside the write's transaction; the memory twins have only this part.
 */
export function refuseLostTerm(term: LeaderTerm | undefined): void {
  if (term && term.term !== 0 && !term.current()) throw new StaleLeaderError(term.job, term.term);
}

/**
 * Leader election port. In scaled mode several worker processes run; a job that must run once per cluster
 * (market ingestion, the chain indexer, the model refresh) is wrapped so that it runs only in the process
 * holding that job's leadership, and starts elsewhere when the holder dies or is cut off (failover).
 */
export interface Leadership {
  /** Wraps a job: start() campaigns in the background; the job runs only while leading. */
  leaderOnly(job: Job): Job & { isLeader(): boolean };
  /**
   * Jobs of one group (the market partitions, `market:0` … `market:<n-1>`), each led separately — its own lease
   * and term, named by the job — with this process leading at most a fair share of them: ceil(jobs / processes
   * campaigning for the group). A process over its share (another joined) hands the surplus over (stops the
   * job, then releases its lease); one under it takes what is free (released, or expired with a dead holder).
   */
  fairShare(group: string, jobs: Job[]): SharedJobs;
  close(): Promise<void>;
}

/** The campaign of a group of jobs (`Leadership.fairShare`): started and stopped as one job. */
export interface SharedJobs extends Job {
  /** The names of the group's jobs this process leads now. */
  led(): string[];
  /** The processes campaigning for the group, as last counted (this one included). */
  members(): number;
}
