/** API usage per account, client and endpoint: counted in memory, flushed to storage periodically. */
export {
  CONSOLE_CLIENT,
  USAGE_BUCKET_MS,
  USAGE_DAYS,
  USAGE_SECOND_MS,
  USAGE_WINDOW_MS,
  type UsageCounter,
  type UsageTotals,
  createUsageCounter,
} from './counter.ts';
export { mergeCells } from './merge.ts';
export { type UsageCell, type UsageRepository, createMemoryUsageRepository } from './repository.ts';
export { createKyselyUsageRepository } from './repository.kysely.ts';
export type { UsageTables } from './tables.ts';
