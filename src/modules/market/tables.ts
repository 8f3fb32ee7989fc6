/** Candles per venue and merged (`venue = 'merged'`), one row per (symbol, venue, interval, open_time). */
export interface MarketCandlesTable {
  symbol: string;
  venue: string;
  interval: string;
  /** Interval open time, ms since the epoch (bigint, parsed to number by the adapters). */
  open_time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quote_volume: number;
}

export interface MarketTables {
  market_candles: MarketCandlesTable;
}
