import { type LeaderTerm, StaleLeaderError } from '../../shared/leadership.ts';
import type { WarnLog } from '../../shared/log-and-ignore.ts';
import { type PeriodicJob, periodicJob } from '../../shared/periodic-job.ts';
import type { CandleRepository, StoredCandle } from './repository.ts';

/** The write queue's bound: beyond it the oldest rows are dropped (and counted) rather than growing memory. */
const MAX_PENDING_ROWS = 2_000_000;
/** Rows per upsert. */
const BATCH_ROWS = 2000;
/** How often the background loop drains the queue. */
const WRITE_EVERY_MS = 2_000;

/**
 * Candle rows waiting to be stored, and the loop that writes them in batches. A write carries the market job's
 * leadership term (`term()`): once it is refused the queue is emptied (the current leader writes those
 * candles). A batch that fails is retried on the next round, and dropped after 10 failed rounds.
 */
export function createWriteQueue(deps: {
  repository: Pick<CandleRepository, 'upsert'>;
  term: () => LeaderTerm | undefined;
  log?: { warn(obj: unknown, msg?: string): void };
}) {
  const { repository, log } = deps;
  const pending: StoredCandle[] = [];
  let dropped = 0;
  let failures = 0;
  let writing: Promise<void> | undefined;
  let writer: PeriodicJob | undefined;
  const warnLog: WarnLog = { warn: (fields, message) => log?.warn(fields, message) };

  const enqueue = (rows: StoredCandle[]) => {
    for (const r of rows) pending.push(r);
    if (pending.length > MAX_PENDING_ROWS) {
      const excess = pending.length - MAX_PENDING_ROWS;
      pending.splice(0, excess);
      dropped += excess;
      log?.warn({ dropped }, 'market candle write queue full: oldest rows dropped');
    }
  };

  async function writeLoop(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.splice(0, BATCH_ROWS);
      try {
        await repository.upsert(batch, deps.term());
        failures = 0;
      } catch (error) {
        if (error instanceof StaleLeaderError) {
          // This process no longer leads: the current leader writes these candles itself.
          dropped += batch.length + pending.length;
          pending.length = 0;
          log?.warn({ err: error }, 'market candle writes refused: leadership moved on');
          return;
        }
        // Keep the rows and retry on the next round (storage may be briefly unavailable); a batch that
        // keeps failing (10 rounds, ~20 s) is dropped so it cannot block every later write.
        if (++failures >= 10) {
          failures = 0;
          dropped += batch.length;
          log?.warn(
            { err: error, rows: batch.length },
            'market candle batch dropped after repeated failures',
          );
          continue;
        }
        pending.unshift(...batch);
        log?.warn({ err: error }, 'market candle write failed; will retry');
        return;
      }
      // Yield to the event loop between batches so requests keep flowing during big history writes.
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  /** Writes everything pending (after any write under way). */
  const flush = async () => {
    while (writing) await writing;
    writing = writeLoop().finally(() => {
      writing = undefined;
    });
    await writing;
  };

  return {
    enqueue,
    flush,
    /** The queue's logger as `logAndIgnore` takes it (the options' `log`, or nothing). */
    warnLog,
    /** Rows waiting to be written. */
    pending: () => pending.length,
    /** Starts the background loop: a flush every 2 s unless one is under way or `stopped()`. */
    startLoop(stopped: () => boolean): void {
      writer = periodicJob({
        name: 'market-candle-writes',
        everyMs: WRITE_EVERY_MS,
        log: warnLog,
        run: () => (!writing && !stopped() ? flush() : undefined),
      });
      writer.start();
    },
    stopLoop(): void {
      void writer?.stop();
    },
  };
}

export type WriteQueue = ReturnType<typeof createWriteQueue>;
