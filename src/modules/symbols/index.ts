/**
 * Symbols module — the one place where request identifiers are normalized (see docs/api.md,
 * "Normalization"). Every endpoint uses it, and reports what it changed with the `Meridian-Normalized`
 * response header (`NormalizationLog` in src/http/normalization-header.ts).
 */
export {
  CANONICAL_QUOTE,
  DEFAULT_SYMBOLS,
  canonicalCandidate,
  configureSupportedSymbols,
  defaultSymbol,
  isSupportedSymbol,
  normalizeSymbol,
  splitSymbol,
  supportedSymbols,
  toCcxtSymbol,
  type NormalizeOptions,
  type SymbolNormalization,
} from './symbols.ts';
export {
  DEFAULT_GRANULARITY,
  DEFAULT_HORIZON,
  DEFAULT_INTERVAL,
  GRANULARITIES,
  HORIZONS,
  INTERVALS,
  durationMs,
  normalizeGranularity,
  normalizeHorizon,
  normalizeInterval,
  parseDurationSeconds,
  type DurationNormalization,
  type Granularity,
  type Horizon,
  type Interval,
} from './durations.ts';
export {
  KNOWN_EXCHANGES,
  isKnownExchange,
  normalizeExchange,
  type Exchange,
  type ExchangeNormalization,
} from './exchanges.ts';
export type { ParameterChange } from './parameter-change.ts';
export { KNOWN_ASSETS, normalizeAsset } from './assets.ts';
