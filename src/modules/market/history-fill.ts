import { setImmediate as nextTurn } from 'node:timers/promises';
import { type HistoryDeps, backfillDay, backfillDays, fillWorkingWindow } from './history.ts';

/** Rows waiting to be written past which the backfill waits for the writer (memory stays bounded). */
const MAX_QUEUED_ROWS = 100_000;
/** Attempts at one symbol's window (or one backfill day) before it is left for the next start. */
const ATTEMPTS = 3;

export interface HistoryProgress {
  symbols: number;
  /** Symbols whose working window (the model's span and 24 h statistics) is loaded. */
  windowsReady: number;
  /** Symbol-days of the deep backfill (storing sources only) done and in all. */
  backfillDaysDone: number;
  backfillDaysTotal: number;
  /** Symbols given up on after repeated failures (until the next start). */
  failed: string[];
  /** Whether everything there is to do is done. */
  complete: boolean;
}

/**
 * The history progress of several markets as one (a worker leading several partitions): counts summed,
 * complete when every one is; undefined when none reports any.
 */
export function combineHistoryProgress(
  parts: Array<HistoryProgress | undefined>,
): HistoryProgress | undefined {
  const present = parts.filter((p): p is HistoryProgress => p !== undefined);
  if (!present.length) return undefined;
  return {
    symbols: present.reduce((n, p) => n + p.symbols, 0),
    windowsReady: present.reduce((n, p) => n + p.windowsReady, 0),
    backfillDaysDone: present.reduce((n, p) => n + p.backfillDaysDone, 0),
    backfillDaysTotal: present.reduce((n, p) => n + p.backfillDaysTotal, 0),
    failed: present.flatMap((p) => p.failed),
    complete: present.every((p) => p.complete),
  };
}

/**
 * The history work that runs after start, in the background: every symbol's working window first (what the
 * model and the 24 h statistics need), then — for a source whose history is fetched and stored — the days of
 * offered history before the windows, one symbol-day at a time, skipping days storage already holds (so a
 * stopped backfill resumes). The feed and the API run meanwhile; answers say which symbols are still filling.
 */
export function createHistoryFill(
  deps: HistoryDeps & {
    symbols: readonly string[];
    historyDays: number;
    writes: { pending(): number; flush(): Promise<void> };
    stopped: () => boolean;
    log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  },
) {
  const ready = new Set<string>();
  const backfilled = new Set<string>();
  const failed = new Set<string>();
  let daysDone = 0;
  let daysTotal = 0;
  let done = false;
  const waiters: Array<() => void> = [];

  async function attempt(what: string, symbol: string, work: () => Promise<unknown>): Promise<boolean> {
    for (let i = 1; i <= ATTEMPTS; i++) {
      try {
        await work();
        return true;
      } catch (error) {
        deps.log?.warn({ symbol, attempt: i, err: error }, `market history: ${what} failed`);
        if (deps.stopped()) return false;
        await new Promise((resolve) => setTimeout(resolve, 1000 * i).unref());
      }
    }
    failed.add(symbol);
    return false;
  }

  async function run(): Promise<void> {
    const started = Date.now();
    for (const symbol of deps.symbols) {
      if (deps.stopped()) return;
      if (await attempt('working window', symbol, () => fillWorkingWindow(symbol, deps))) ready.add(symbol);
      await nextTurn();
    }
    for (const w of waiters.splice(0)) w();
    deps.log?.info(
      { symbols: deps.symbols.length, ready: ready.size, seconds: (Date.now() - started) / 1000 },
      'market history: working windows loaded',
    );
    if (!deps.computed) await backfill(started);
    done = true;
  }

  async function backfill(started: number): Promise<void> {
    const days = backfillDays(deps.clock.now(), deps.historyDays, deps.source.historySince);
    daysTotal = days.length * deps.symbols.length;
    let fetched = 0;
    for (const symbol of deps.symbols) {
      let whole = true;
      for (const day of days) {
        if (deps.stopped()) return;
        const ok = await attempt('backfill', symbol, async () => {
          if (await backfillDay(symbol, day, deps)) fetched++;
        });
        whole &&= ok;
        daysDone++;
        if (deps.writes.pending() > MAX_QUEUED_ROWS) await deps.writes.flush();
        await nextTurn();
      }
      if (whole) backfilled.add(symbol);
    }
    deps.log?.info(
      { symbols: deps.symbols.length, days: daysTotal, fetched, seconds: (Date.now() - started) / 1000 },
      'market history: backfill complete',
    );
  }

  return {
    run,
    /** Resolves once every symbol's working window has been tried (tests, benchmarks). */
    windowsLoaded: (): Promise<void> =>
      ready.size + failed.size >= deps.symbols.length || done
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push(resolve)),
    /** Whether a symbol's working window is loaded (the model may read it). */
    windowReady: (symbol: string): boolean => ready.has(symbol),
    /** Whether a symbol's history is still being filled (its answers say so). */
    filling: (symbol: string): boolean => !ready.has(symbol) || (!deps.computed && !backfilled.has(symbol)),
    progress: (): HistoryProgress => ({
      symbols: deps.symbols.length,
      windowsReady: ready.size,
      backfillDaysDone: daysDone,
      backfillDaysTotal: daysTotal,
      failed: [...failed],
      complete: done && failed.size === 0,
    }),
  };
}

export type HistoryFill = ReturnType<typeof createHistoryFill>;
