export { runBacktest, type BacktestInput } from './backtest/run.ts';
export type { BacktestReport } from './backtest/report.ts';
export type { LeakageScore } from './backtest/leakage.ts';
export type { Spread } from './backtest/calibrated-world.ts';
export { reportSvg } from './backtest/svg.ts';
export { createMemoryPredictionRepository, type PredictionRepository } from './repository.ts';
export { createKyselyPredictionRepository } from './repository.kysely.ts';
export {
  createPredictionsService,
  type PredictionsDerivativesPort,
  type PredictionsMarketPort,
  type PredictionsQuery,
  type PredictionsService,
  type PredictionsServiceDeps,
  type SymbolProvenance,
} from './service.ts';
export type { PredictionsTables } from './tables.ts';
export { type LevelProbability, levelProbabilities, type TouchExcursionsOf } from './level-probability.ts';
export { MODEL_VERSION, checkTuning, type EngineTuning } from './models/engine.ts';
export type { PredictionDatapoint } from './present.ts';
export * from './types.ts';
export { type PredictionsTopics, predictionsTopicDecoders } from './topics.ts';
export type { LedgerHead } from './ledger/chain.ts';
export type { PublicLedgerEntry } from './present.ts';
export {
  createLedgerVerifier,
  formatLedgerVerification,
  type LedgerVerification,
  verifyStoredLedger,
} from './ledger/verify.ts';
export {
  type FundingAblation,
  type FundingContribution,
  runBacktestWithFundingAblation,
} from './backtest/funding-ablation.ts';
