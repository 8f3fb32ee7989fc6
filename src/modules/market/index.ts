/**
 * Market module — public face. Other modules import only from here.
 *
 * - `MarketService` (types.ts): snapshots, in-memory recent candles, stored candles, candle-closed hook,
 *   USD prices. Built by `createMarketService` (service.ts) from a `MarketSource`, a clock, a repository.
 * - Candle type, intervals, resampling and the candle-file readers (freqtrade JSON / CSV) shared with the
 *   backtester.
 * - The `MarketSource` port for adapters and the normalized events it delivers (ports.ts).
 * - The pages of the market-data answer, joined from the per-symbol fragments and kept per snapshot
 *   (`createMarketDataPages`, snapshots.ts).
 */
export * from './candles.ts';
export * from './candle-files.ts';
export type * from './ports.ts';
export type * from './types.ts';
export {
  createMarketService,
  type MarketRuntime,
  type MarketServiceOptions,
} from './service.ts';
export type { HistoryProgress } from './history-fill.ts';
export { combineHistoryProgress } from './history-fill.ts';
export { createMemoryCandleRepository, type CandleRepository, type StoredCandle } from './repository.ts';
export { createKyselyCandleRepository } from './repository.kysely.ts';
export type { MarketTables } from './tables.ts';
export { type MarketSnapshotMessage, decodeMarketSnapshotMessage } from './follower.ts';
export { type MarketTopics, marketTopicDecoders } from './topics.ts';
export {
  type MarketDataPages,
  type MarketDataSource,
  createMarketDataPages,
  withNextCursor,
} from './snapshots.ts';
export { partitionOf, partitionSymbols } from './partition.ts';
