/**
 * Identifiers module — the request vocabulary in one place (see docs/api.md, "Normalization"): symbols, quotes and
 * the supported set, assets (stablecoins, wrapped assets), exchanges, durations (horizons, candle
 * intervals, granularities, the page limit). Every endpoint normalizes through it and reports what it
 * changed with the `Meridian-Normalized` response header (`NormalizationLog` in
 * src/http/normalization-header.ts). It holds no state: the supported symbol set is made by the composition
 * root (`createSupportedSymbols`) and handed to whoever needs it.
 */
export type { Normalized, ParameterChange } from './types.ts';
export {
  DEFAULT_SYMBOLS,
  canonicalCandidate,
  QUOTES,
  canonicalSymbols,
  createSupportedSymbols,
  isDollarQuote,
  normalizeQuote,
  normalizeSymbol,
  splitSymbol,
  toCcxtSymbol,
  type NormalizeOptions,
  type SupportedSymbols,
} from './symbols.ts';
export {
  GRANULARITIES,
  HORIZONS,
  HORIZON_MS,
  INTERVALS,
  INTERVAL_MS,
  MAX_LIMIT,
  clampLimit,
  durationMs,
  isHorizon,
  isInterval,
  normalizeGranularity,
  normalizeHorizon,
  normalizeInterval,
  parseDuration,
  type Granularity,
  type Horizon,
  type Interval,
} from './durations.ts';
export {
  KNOWN_EXCHANGES,
  knownExchangeNames,
  normalizeExchange,
  type Exchange,
  type ExchangeNormalization,
  type ExchangeOptions,
} from './exchanges.ts';
export { isDollar, normalizeAsset, underlyingAsset } from './assets.ts';
