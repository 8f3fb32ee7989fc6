/** The portfolio module's public face: other modules, the HTTP layer and the composition root import only from here. */
export { Decimal, parseDecimal } from './decimal.ts';
export { MAX_IMPORT_ROWS, ROW_FIELDS, type RawRow, type RowField, type RowProblem } from './types.ts';
export { type AssetQuote, type Holding, type PricePort, type Totals, computeHoldings } from './holdings.ts';
export { presentImport, presentPortfolio, presentRow } from './present.ts';
export {
  type ImportRecord,
  type PortfolioRepository,
  type PortfolioRow,
  createMemoryPortfolioRepository,
} from './repository.ts';
export { createKyselyPortfolioRepository } from './repository.kysely.ts';
export { parseAcquiredAt } from './rows.ts';
export {
  IDEMPOTENCY_STALE_MS,
  IDEMPOTENCY_TTL_MS,
  type ImportAnswer,
  type ImportBody,
  type ImportRequest,
  type PortfolioService,
  createPortfolioService,
} from './service.ts';
export type { PortfolioTables } from './tables.ts';
