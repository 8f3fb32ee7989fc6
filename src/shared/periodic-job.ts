import type { WarnLog } from './log-and-ignore.ts';

/**
 * A small module rather than toad-scheduler: its `preventOverrun` neither counts the ticks it skips nor lets
 * `stop()` wait for the run in flight, which is what shutdown and leadership hand-over need.
 */

export interface PeriodicJobOptions {
  /** Names the job in logs and in the `job` label of the meridian_job_* metrics (docs/operations.md). */
  name: string;
  everyMs: number;
  run(): unknown;
  /** Where a failed run is reported: one line per failure. Without it a failure is only counted. */
  log?: WarnLog;
  /** The ticks come this much later (a fixed phase: several jobs of one period spread over it). */
  offsetMs?: number;
  /** And up to this much later again (uniformly random), so replicas' jobs do not fire in step. */
  jitterMs?: number;
  /** By default the timer does not hold the process open (`unref`); a job whose ticks must keep it alive says so. */
  keepsProcessAlive?: boolean;
  /** For tests of the jitter; Math.random otherwise. */
  random?: () => number;
}

export interface PeriodicJob {
  readonly name: string;
  /** Ticks every `everyMs` from now on (a second call while started does nothing). */
  start(): void;
  /** Runs now, or joins the run in flight; resolves when it is over (a failure is logged and counted, not thrown). */
  runNow(): Promise<void>;
  /** No more ticks; resolves once the run in flight (if any) is over. */
  stop(): Promise<void>;
}

/** What periodic jobs have done in this process, by job name. */
export interface PeriodicJobTally {
  runs: number;
  /** Ticks that came while a run was still in flight (no second run was started). */
  skipped: number;
  failures: number;
}

// Process-wide, as Node's own runtime metrics are: a job has no registry at hand, and each container's
// registry exports these (observability/metrics.ts). Jobs of one name in several containers (tests) add up.
const tallies = new Map<string, PeriodicJobTally>();

export const periodicJobTallies = (): ReadonlyMap<string, Readonly<PeriodicJobTally>> => tallies;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A named background loop that never overlaps itself (see PeriodicJobOptions). */
export function periodicJob(options: PeriodicJobOptions): PeriodicJob {
  const { name, everyMs } = options;
  let tally = tallies.get(name);
  if (!tally) {
    tally = { runs: 0, skipped: 0, failures: 0 };
    tallies.set(name, tally);
  }
  const counts = tally;
  let inFlight: Promise<void> | undefined;
  let interval: NodeJS.Timeout | undefined;
  let firstTick: NodeJS.Timeout | undefined;

  const runNow = (): Promise<void> => {
    inFlight ??= (async () => {
      counts.runs++;
      try {
        await options.run();
      } catch (error) {
        counts.failures++;
        options.log?.warn({ job: name, error: messageOf(error) }, `${name} failed; the next run retries`);
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const tick = () => {
    if (inFlight) counts.skipped++;
    else void runNow();
  };

  const hold = <T extends NodeJS.Timeout>(timer: T): T => {
    if (!options.keepsProcessAlive) timer.unref();
    return timer;
  };

  const startInterval = () => {
    firstTick = undefined;
    interval = hold(setInterval(tick, everyMs));
  };

  return {
    name,
    start() {
      if (interval || firstTick) return;
      const jitter = Math.floor((options.random ?? Math.random)() * (options.jitterMs ?? 0));
      const delay = (options.offsetMs ?? 0) + jitter;
      if (delay > 0) firstTick = hold(setTimeout(startInterval, delay));
      else startInterval();
    },
    runNow,
    async stop() {
      clearTimeout(firstTick);
      clearInterval(interval);
      firstTick = interval = undefined;
      await inFlight;
    },
  };
}
