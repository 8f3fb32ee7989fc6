/** Merged derivatives series, one row per (symbol, metric, time); see `SeriesPoint` for the two values. */
export interface DerivativesPointsTable {
  symbol: string;
  metric: string;
  /** ms since the epoch (bigint, parsed to number by the repository). */
  time: number;
  value: number | null;
  value2: number | null;
}

export interface DerivativesTables {
  derivatives_points: DerivativesPointsTable;
}
