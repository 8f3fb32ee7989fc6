import { failureStreak } from '../../shared/failure-streak.ts';
import { FundingSeries, OpenInterestSeries } from './features/series.ts';
import type { FundingPoint, OpenInterestPoint } from './types.ts';

type History<P> = (symbol: string, fromMs: number, toMs: number) => Promise<P[]>;

/**
 * Per symbol, a derivatives series the `funding` member reads (settled funding rates, open interest): loaded
 * for the warm-up span, then extended up to the present before each refresh — the same way a live perpetual
 * feed publishes them. The series only read points at or before `t`, so the walk-forward warm-up never sees a
 * later one. Each request resumes after the newest point received (not after the request's end), so a point
 * stored late — a settlement or a minute of open interest written after the model asked — is still read.
 */
function createHistoryFeed<
  P extends { time: number },
  S extends { times: readonly number[]; append(p: P): void },
>(deps: {
  history?: History<P>;
  make: () => S;
  what: string;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}) {
  const bySymbol = new Map<string, { series: S; loadedTo: number }>();
  // Forecasts go on without the newest points; said once per failure streak.
  let failingSymbol = '';
  const streak = failureStreak({
    failed: (error) =>
      deps.log?.(`${deps.what} history unavailable`, { symbol: failingSymbol, error: String(error) }),
    recovered: () => deps.log?.(`${deps.what} history available again`),
  });
  return {
    /** Brings `symbol`'s points up to `toMs` (inclusive), starting at `fromMs` the first time. */
    async update(symbol: string, fromMs: number, toMs: number): Promise<void> {
      if (!deps.history) return;
      let entry = bySymbol.get(symbol);
      if (!entry) {
        entry = { series: deps.make(), loadedTo: fromMs };
        bySymbol.set(symbol, entry);
      }
      if (toMs < entry.loadedTo) return;
      try {
        for (const p of await deps.history(symbol, entry.loadedTo, toMs + 1)) entry.series.append(p);
        const last = entry.series.times.at(-1);
        if (last !== undefined) entry.loadedTo = Math.max(entry.loadedTo, last + 1);
        streak.succeeded();
      } catch (error) {
        failingSymbol = symbol;
        streak.failed(error);
      }
    },
    series: (symbol: string): S | undefined => bySymbol.get(symbol)?.series,
    /**
     * Whether `symbol`'s points are known: true or false once this process has asked the source (the model
     * runs here), undefined before (an API replica, which only reads what the workers stored).
     */
    known(symbol: string): boolean | undefined {
      if (!deps.history) return false;
      const entry = bySymbol.get(symbol);
      return entry && entry.series.times.length > 0;
    },
  };
}

/** Settled funding rates per symbol. */
export const createFundingFeed = (deps: {
  history?: History<FundingPoint>;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}) => createHistoryFeed({ ...deps, make: () => new FundingSeries(), what: 'funding' });

/** Open interest (USD) per symbol. */
export const createOpenInterestFeed = (deps: {
  history?: History<OpenInterestPoint>;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}) => createHistoryFeed({ ...deps, make: () => new OpenInterestSeries(), what: 'open interest' });
