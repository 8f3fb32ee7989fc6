/**
 * Symbols module — the one place where request identifiers are normalized (see docs/api.md,
 * "Normalization"). Every endpoint uses it, and reports what it changed with the `Meridian-Normalized`
 * response header (`NormalizationLog` in src/http/normalization-header.ts).
 */
export {
  DEFAULT_SYMBOLS,
  canonicalCandidate,
  configureSupportedSymbols,
  normalizeSymbol,
  splitSymbol,
  supportedSymbols,
  toCcxtSymbol,
  type NormalizeOptions,
  type SymbolNormalization,
} from './symbols.ts';
export {
  GRANULARITIES,
  HORIZONS,
  INTERVALS,
  durationMs,
  normalizeGranularity,
  normalizeHorizon,
  normalizeInterval,
  type DurationNormalization,
  type Granularity,
  type Horizon,
  type Interval,
} from './durations.ts';
export {
  KNOWN_EXCHANGES,
  normalizeExchange,
  type Exchange,
  type ExchangeNormalization,
} from './exchanges.ts';
export type { ParameterChange } from './parameter-change.ts';
export { normalizeAsset } from './assets.ts';
