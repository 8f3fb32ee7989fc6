/**
 * The derivatives module's domain types: perpetual-futures metrics per venue and merged per symbol.
 * Rates are fractions per funding period (0.0001 = 0.01 %), money in USD, times in ms since the epoch.
 */

/** The stored and queried series. */
export const DERIVATIVES_METRICS = ['funding', 'open_interest', 'basis', 'liquidations'] as const;
export type DerivativesMetric = (typeof DERIVATIVES_METRICS)[number];

export const isDerivativesMetric = (x: string): x is DerivativesMetric =>
  (DERIVATIVES_METRICS as readonly string[]).includes(x);

/** What a source read from one venue for one symbol at `time`; a field the venue does not publish is absent. */
export interface VenueReading {
  venue: string;
  symbol: string;
  /** The venue's time of the reading. */
  time: number;
  /** The funding rate accruing now, settled at `nextFundingTime`. */
  fundingRate?: number;
  /** The venue's estimate of the rate after that (few venues publish one). */
  predictedFundingRate?: number;
  nextFundingTime?: number;
  /** Hours between settlements (8 on most venues). */
  fundingIntervalHours?: number;
  openInterestContracts?: number;
  openInterestUsd?: number;
  markPrice?: number;
  indexPrice?: number;
}

/** One forced liquidation order. `long`: a long position closed by a sell. */
export interface Liquidation {
  venue: string;
  symbol: string;
  time: number;
  side: 'long' | 'short';
  price: number;
  /** Base amount. */
  size: number;
  usd: number;
}

/**
 * One stored point. `value`: funding rate (settled), open interest USD, basis bps, long liquidations USD;
 * `value2`: open-interest contracts, short liquidations USD (null where the metric has none).
 */
export interface SeriesPoint {
  time: number;
  value: number | null;
  value2: number | null;
}

/** A venue's part in a symbol's merged view. */
export interface VenueView {
  venue: string;
  /** Share of the merged funding, basis and open interest; 0 when excluded. */
  weight: number;
  stale: boolean;
  outlier: boolean;
  reading: VenueReading;
}

/** A symbol's merged derivatives view at one moment (absent metrics are null, never 0). */
export interface DerivativesSummary {
  symbol: string;
  /** The newest reading merged, venue time; null before the first. */
  asOf: number | null;
  stale: boolean;
  funding: {
    rate: number;
    predictedRate: number | null;
    nextFundingTime: number | null;
    intervalHours: number;
  } | null;
  openInterest: { contracts: number | null; usd: number | null; change24hPct: number | null } | null;
  basis: { bps: number; markPrice: number; indexPrice: number; intervalHours: number } | null;
  liquidations: {
    h1: { longUsd: number; shortUsd: number };
    h24: { longUsd: number; shortUsd: number };
  } | null;
  venues: VenueView[];
}

/** How complete a symbol's stored history is. */
export interface DerivativesHistoryState {
  filling: boolean;
  from: number;
}
