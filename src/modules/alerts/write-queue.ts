import { exponentialBackoff } from '../../shared/backoff.ts';
import { StaleLeaderError } from '../../shared/leadership.ts';
import type { AlertsLogger } from './ports.ts';

/**
 * The evaluator's writes, one after another in the order they were queued, each retried until it is stored
 * (see `writeWithRetry`). Evaluation never waits for them.
 */
export class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly log: AlertsLogger,
    /** False once the evaluator is stopping: a failing write is then given up after a few attempts. */
    private readonly running: () => boolean,
  ) {}

  get pending(): number {
    return this.queued;
  }

  enqueue(work: () => Promise<void>): void {
    this.queued++;
    this.tail = this.tail
      .then(() => writeWithRetry(work, this.log, this.running))
      .finally(() => {
        this.queued--;
      });
  }

  /** Resolves when the writes queued so far are done. */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Resolves when no write is queued, including ones queued while waiting. */
  async drained(): Promise<void> {
    while (this.queued > 0) await this.tail;
  }
}

/**
 * Runs one write until it succeeds, with exponential backoff (200 ms doubling, at most 5 s, ± 25 %). A write refused
 * because leadership moved on is dropped; at shutdown a write is abandoned after three attempts.
 */
export async function writeWithRetry(
  work: () => Promise<void>,
  log: AlertsLogger,
  running: () => boolean,
): Promise<void> {
  const backoff = exponentialBackoff({ initialMs: 200, maxMs: 5_000 });
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (error instanceof StaleLeaderError) {
        // This process no longer leads: the current leader evaluates and writes instead.
        log.warn({ err: String(error) }, 'alerts: write refused, leadership moved on');
        return;
      }
      if (!running() && attempt >= 3) {
        log.error({ err: String(error) }, 'alerts: write abandoned at shutdown');
        return;
      }
      log.warn({ err: String(error), attempt }, 'alerts: write failed; retrying');
      await new Promise((r) => setTimeout(r, backoff.next()));
    }
  }
}
