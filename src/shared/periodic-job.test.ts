import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicJob, periodicJobTallies } from './periodic-job.ts';

/** A run that stays in flight until `finish()` is called. */
function heldRun() {
  let started = 0;
  let finish: () => void = () => {};
  const run = () => {
    started++;
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  };
  return { run, started: () => started, finish: () => finish() };
}

let seq = 0;
const uniqueName = (what: string) => `test-${what}-${++seq}`;

describe('periodicJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every period once started, and not after stop', async () => {
    let runs = 0;
    const job = periodicJob({ name: uniqueName('plain'), everyMs: 1_000, run: () => void runs++ });
    job.start();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(runs).toBe(3);
    await job.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });

  it('skips a tick that comes while a run is in flight, and counts it', async () => {
    const name = uniqueName('overlap');
    const held = heldRun();
    const job = periodicJob({ name, everyMs: 1_000, run: held.run });
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(held.started()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(held.started()).toBe(1);
    expect(periodicJobTallies().get(name)).toEqual({ runs: 1, skipped: 2, failures: 0 });
    held.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(held.started()).toBe(2);
    held.finish();
    await job.stop();
  });

  it('runNow joins the run in flight instead of starting a second one', async () => {
    const held = heldRun();
    const job = periodicJob({ name: uniqueName('join'), everyMs: 1_000, run: held.run });
    const first = job.runNow();
    const second = job.runNow();
    expect(held.started()).toBe(1);
    held.finish();
    await Promise.all([first, second]);
    expect(held.started()).toBe(1);
  });

  it('stop() resolves only once the run in flight is over', async () => {
    const held = heldRun();
    const job = periodicJob({ name: uniqueName('stop'), everyMs: 1_000, run: held.run });
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    held.finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('logs each failed run once, counts it, and keeps ticking', async () => {
    const name = uniqueName('failing');
    const warn = vi.fn();
    let runs = 0;
    const job = periodicJob({
      name,
      everyMs: 1_000,
      log: { warn },
      run: () => {
        runs++;
        if (runs <= 2) throw new Error(`boom ${runs}`);
      },
    });
    job.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await job.stop();
    expect(runs).toBe(3);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenNthCalledWith(
      1,
      { job: name, error: 'boom 1' },
      `${name} failed; the next run retries`,
    );
    expect(periodicJobTallies().get(name)).toEqual({ runs: 3, skipped: 0, failures: 2 });
  });

  it('delays the first tick by the jitter and does not hold the process open by default', async () => {
    let runs = 0;
    const intervals = vi.spyOn(globalThis, 'setInterval');
    const job = periodicJob({
      name: uniqueName('jitter'),
      everyMs: 1_000,
      jitterMs: 500,
      random: () => 0.5,
      run: () => void runs++,
    });
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(1);
    const timer = intervals.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    intervals.mockRestore();
    await job.stop();
  });

  it('can start again after stop (a job handed back its leadership)', async () => {
    let runs = 0;
    const job = periodicJob({ name: uniqueName('restart'), everyMs: 1_000, run: () => void runs++ });
    job.start();
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    await job.stop();
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    await job.stop();
  });
});
