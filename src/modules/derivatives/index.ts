/** The derivatives module's face: perpetual funding, open interest, basis and liquidations. */
export { annualizedPct, mergeReadings } from './merge.ts';
export type { DerivativesSource } from './ports.ts';
export { type DerivativesView, type LiquidationView, presentSummary } from './present.ts';
export {
  type Bucket,
  type DerivativesRepository,
  type StoredPoint,
  createMemoryDerivativesRepository,
} from './repository.ts';
export { createKyselyDerivativesRepository } from './repository.kysely.ts';
export {
  type DerivativesHistoryQuery,
  type DerivativesService,
  type DerivativesServiceOptions,
  createDerivativesService,
} from './service.ts';
export type { DerivativesTables } from './tables.ts';
export { type DerivativesTopics, type DerivativesUpdate, derivativesTopicDecoders } from './topics.ts';
export {
  DERIVATIVES_METRICS,
  type DerivativesMetric,
  type DerivativesSummary,
  type Liquidation,
  type SeriesPoint,
  type VenueReading,
  isDerivativesMetric,
} from './types.ts';
