import { failureStreak } from '../../shared/failure-streak.ts';
import { FundingSeries } from './features/series.ts';
import type { FundingPoint } from './types.ts';

/**
 * Per symbol, the settled funding rates the `funding` member reads: loaded for the warm-up span, then extended
 * up to the present before each refresh — the same way a live perpetual feed publishes them. `FundingSeries.at(t)`
 * only reads rates settled at or before `t`, so the walk-forward warm-up never sees a later settlement.
 */
export function createFundingFeed(deps: {
  history?: (symbol: string, fromMs: number, toMs: number) => Promise<FundingPoint[]>;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}) {
  const bySymbol = new Map<string, { series: FundingSeries; loadedTo: number }>();
  // Forecasts go on without the newest settlement; said once per failure streak.
  let failingSymbol = '';
  const streak = failureStreak({
    failed: (error) =>
      deps.log?.('funding history unavailable', { symbol: failingSymbol, error: String(error) }),
    recovered: () => deps.log?.('funding history available again'),
  });
  return {
    /** Brings `symbol`'s rates up to `toMs` (inclusive), starting at `fromMs` the first time. */
    async update(symbol: string, fromMs: number, toMs: number): Promise<void> {
      if (!deps.history) return;
      let entry = bySymbol.get(symbol);
      if (!entry) {
        entry = { series: new FundingSeries(), loadedTo: fromMs };
        bySymbol.set(symbol, entry);
      }
      if (toMs < entry.loadedTo) return;
      try {
        for (const p of await deps.history(symbol, entry.loadedTo, toMs + 1)) entry.series.append(p);
        entry.loadedTo = toMs + 1;
        streak.succeeded();
      } catch (error) {
        failingSymbol = symbol;
        streak.failed(error);
      }
    },
    series: (symbol: string): FundingSeries | undefined => bySymbol.get(symbol)?.series,
    /**
     * Whether `symbol`'s rates are known: true or false once this process has asked the source (the model runs
     * here), undefined before (an API replica, which only reads what the workers stored).
     */
    known(symbol: string): boolean | undefined {
      if (!deps.history) return false;
      const entry = bySymbol.get(symbol);
      return entry && entry.series.times.length > 0;
    },
  };
}
