/** The four ensemble members, one per entry of a datapoint's `factors` (docs/forecasting.md, "Datapoint"). */
export const FACTORS = ['orderflow', 'funding', 'macro', 'ai_residual'] as const;
export type Factor = (typeof FACTORS)[number];

/** A closed OHLCV bar. Structurally the market module's `Candle` (openTime in ms). */
export interface Bar {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A settled funding rate (fraction per funding period) at its settlement time. */
export interface FundingPoint {
  time: number;
  rate: number;
}

/** Open interest (USD, summed over the venues) sampled at `time`. */
export interface OpenInterestPoint {
  time: number;
  usd: number;
}

/** Live-only inputs from the merged market snapshot; any of them may be absent. */
export interface LiveInputs {
  mid?: number;
  bookImbalance?: number;
  tradeFlowImbalance?: number;
  fundingRate?: number;
  basisBps?: number;
  /** Hours between funding settlements on the perpetual (8 when absent). */
  fundingIntervalHours?: number;
}

/** Quantile levels exposed by `include=quantiles`: p05, p10, …, p95. */
export const PUBLIC_QUANTILES = [
  0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
] as const;

export const quantileKey = (level: number): string => `p${String(Math.round(level * 100)).padStart(2, '0')}`;
