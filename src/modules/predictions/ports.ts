import type { Bar, FundingPoint } from './types.ts';

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
