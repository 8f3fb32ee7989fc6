/** API usage per account and endpoint: counted in memory, flushed to storage periodically. */
export {
  USAGE_BUCKET_MS,
  USAGE_WINDOW_MS,
  type UsageCounter,
  type UsageTotals,
  createUsageCounter,
} from './counter.ts';
export { type UsageCell, type UsageRepository, createMemoryUsageRepository } from './repository.ts';
export { createKyselyUsageRepository } from './repository.kysely.ts';
export type { UsageTables } from './tables.ts';
