import type { Bar, FundingPoint, OpenInterestPoint } from './types.ts';

/** What the engine needs from the market module (its `MarketService` satisfies this structurally). */
export interface PredictionsMarketPort {
  symbols(): string[];
  snapshot(symbol: string):
    | {
        mid: number | null;
        bookImbalance: number | null;
        tradeImbalance5m: number | null;
        fundingRate: number | null;
        basisBps: number | null;
      }
    | undefined;
  /**
   * The last `count` closed 1m candles, oldest first; with `after` (an open time) only those that open after
   * it (a source that ignores it answers correctly too: bars already held are skipped).
   */
  recentCandles(symbol: string, interval: '1m', count: number, after?: number): Bar[];
  /**
   * Whether the symbol's working window (the minutes the model reads) is loaded. Absent: always. A symbol is
   * warmed up and forecast only once it is.
   */
  windowReady?(symbol: string): boolean;
  /** Settled perpetual funding rates in [fromMs, toMs); absent or empty for spot-only sources. */
  fundingHistory?(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
}

/**
 * What the `funding` member reads from the derivatives module (the perpetuals merged across venues): real
 * funding, basis and open interest for a symbol with a perpetual; for one without, none of them, and the
 * member contributes nothing. When given, it replaces the market snapshot's funding and basis.
 */
export interface PredictionsDerivativesPort {
  /** The merged figures now (null: not published, or stale); undefined when the symbol has no perpetual data. */
  latest(
    symbol: string,
  ): { fundingRate: number | null; fundingIntervalHours: number | null; basisBps: number | null } | undefined;
  /** Settled funding rates stored in [fromMs, toMs), oldest first. */
  fundingHistory(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
  /** Open interest (USD, summed over venues) stored in [fromMs, toMs), oldest first. */
  openInterestHistory(symbol: string, fromMs: number, toMs: number): Promise<OpenInterestPoint[]>;
}
