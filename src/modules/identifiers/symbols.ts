import { AppError } from '../../shared/errors.ts';
import type { Normalized } from './types.ts';
import { DOLLAR_QUOTES } from './assets.ts';

/** The default supported set; configurable at start. */
export const DEFAULT_SYMBOLS = [
  'BTCUSDT',
  'ETHUSDT',
  'SOLUSDT',
  'BNBUSDT',
  'XRPUSDT',
  'ADAUSDT',
  'DOGEUSDT',
] as const;

/** Canonical quote currency: every stable-dollar quote collapses to it. */
const CANONICAL_QUOTE = 'USDT';

/** Quote spellings folded into USDT. Longest first so `FDUSD` wins over `USD`. */
const QUOTE_ALIASES = [...DOLLAR_QUOTES].sort((a, b) => b.length - a.length);
/** Non-dollar quotes we still recognise when splitting a concatenated symbol (they stay as given). */
const OTHER_QUOTES = ['BTC', 'ETH', 'EUR', 'BNB'] as const;
const BASE_ALIASES: Record<string, string> = { XBT: 'BTC' };

/**
 * Canonical, de-duplicated symbols of a configured list (`MERIDIAN_SYMBOLS`; each entry is normalized, an
 * entry with no usable shape is dropped). Throws when nothing is left.
 */
export function canonicalSymbols(list: readonly string[]): readonly string[] {
  const out: string[] = [];
  for (const raw of list) {
    const candidate = canonicalCandidate(raw);
    if (candidate && !out.includes(candidate)) out.push(candidate);
  }
  if (out.length === 0) throw new Error('the supported symbol set must not be empty');
  return Object.freeze(out);
}

/** The symbol an unsupported request falls back to: BTCUSDT when supported, else the first one. */
function defaultSymbol(supported: readonly string[]): string {
  return supported.includes('BTCUSDT') ? 'BTCUSDT' : (supported[0] ?? 'BTCUSDT');
}

/**
 * Turns any accepted spelling into `BASE` + `QUOTE` upper case, or `undefined` when the text has no
 * usable shape. Does not check the supported set.
 *
 * Accepts any case; separators `/ - _ :` and spaces; the ccxt perp form `BTC/USDT:USDT`; `XBT`→`BTC`;
 * quotes USD, USDC, BUSD, FDUSD, TUSD → USDT; a bare base (`eth`) → base + USDT.
 */
export function canonicalCandidate(input: string): string | undefined {
  let text = input.trim().toUpperCase();
  if (text === '') return undefined;
  // ccxt derivative form BASE/QUOTE:SETTLE — drop the settlement currency.
  if (text.includes('/') && text.includes(':')) text = text.slice(0, text.indexOf(':'));
  const parts = text.split(/[\s/\-_:]+/).filter(Boolean);
  let base: string;
  let quote: string;
  if (parts.length === 2) {
    base = parts[0]!;
    quote = parts[1]!;
  } else if (parts.length === 1) {
    const split = splitConcatenated(parts[0]!);
    base = split.base;
    quote = split.quote;
  } else {
    return undefined;
  }
  if (!/^[A-Z0-9]{1,15}$/.test(base) || !/^[A-Z0-9]{1,15}$/.test(quote)) return undefined;
  base = BASE_ALIASES[base] ?? base;
  if ((QUOTE_ALIASES as readonly string[]).includes(quote)) quote = CANONICAL_QUOTE;
  return base + quote;
}

function splitConcatenated(text: string): { base: string; quote: string } {
  for (const quote of [...QUOTE_ALIASES, ...OTHER_QUOTES]) {
    if (text.length > quote.length && text.endsWith(quote)) {
      const base = text.slice(0, -quote.length);
      // `BTCUSDT` splits as BTC+USDT, but `USDTUSD`-like oddities or a base that is itself a quote stay whole.
      if (base.length >= 2) return { base, quote };
    }
  }
  return { base: text, quote: CANONICAL_QUOTE };
}

export interface NormalizeOptions {
  /** Answer 400 instead of falling back to the default symbol. */
  strict?: boolean;
  /** Parameter name used in the error's JSON pointer. Default `symbol`. */
  param?: string;
}

/**
 * Normalizes a requested symbol to a supported set. Unsupported → the default symbol (the documented fallback),
 * or with `strict` an `unsupported_symbol` error (400) listing the supported set.
 */
export function normalizeSymbol(
  input: string | undefined,
  supported: readonly string[],
  options: NormalizeOptions = {},
): Normalized<string> {
  const candidate = input === undefined ? undefined : canonicalCandidate(input);
  if (candidate !== undefined && supported.includes(candidate)) {
    return { value: candidate, requested: input, changed: candidate !== input };
  }
  if (options.strict) {
    const param = options.param ?? 'symbol';
    throw new AppError(
      'unsupported_symbol',
      `${param} ${JSON.stringify(input ?? '')} is not supported; supported symbols: ${supported.join(', ')}`,
      {
        errors: [{ pointer: `/query/${param}`, message: `must be one of ${supported.join(', ')}` }],
        extra: { supported: [...supported] },
      },
    );
  }
  const value = defaultSymbol(supported);
  return { value, requested: input, changed: value !== input };
}

/**
 * The symbols this process serves: made once by the composition root (src/app) from the configuration and
 * what the market source can serve, and handed to everything that normalizes or lists symbols (the market
 * service, the REST and push routes, alerts, portfolio). Immutable.
 */
export interface SupportedSymbols {
  /** Canonical symbols, in configured order. */
  readonly list: readonly string[];
  /** What an unsupported request falls back to. */
  readonly fallback: string;
  has(symbol: string): boolean;
  /** `normalizeSymbol` over this set. */
  normalize(input: string | undefined, options?: NormalizeOptions): Normalized<string>;
}

/** The supported set of canonical symbols (`canonicalSymbols` first for configured spellings). */
export function createSupportedSymbols(symbols: readonly string[]): SupportedSymbols {
  const list = Object.freeze([...symbols]);
  if (list.length === 0) throw new Error('the supported symbol set must not be empty');
  const set = new Set(list);
  return Object.freeze({
    list,
    fallback: defaultSymbol(list),
    has: (symbol: string) => set.has(symbol),
    normalize: (input: string | undefined, options?: NormalizeOptions) =>
      normalizeSymbol(input, list, options),
  });
}

/** The quote currencies a canonical symbol can end in: USDT (every dollar spelling folds into it) and the others. */
export const QUOTES: readonly string[] = Object.freeze([CANONICAL_QUOTE, ...OTHER_QUOTES]);

/**
 * Normalizes a quote currency (`quote=` of GET /api/market-data and `/market`): any case, surrounding spaces
 * ignored; the dollar spellings (USD, USDC, BUSD, FDUSD, TUSD) → USDT, as in symbols. Anything else is a 400
 * naming the parameter and listing the quotes — never a fallback: a filter silently widened or moved to
 * another currency would answer a question nobody asked (as with unknown exchanges).
 */
export function normalizeQuote(input: string, options: { param?: string } = {}): Normalized<string> {
  const text = input.trim().toUpperCase();
  const value = (QUOTE_ALIASES as readonly string[]).includes(text) ? CANONICAL_QUOTE : text;
  if (QUOTES.includes(value)) return { value, requested: input, changed: value !== input };
  const param = options.param ?? 'quote';
  const message = `must be one of ${QUOTES.join(', ')} (${QUOTE_ALIASES.filter((q) => q !== CANONICAL_QUOTE).join(', ')} mean ${CANONICAL_QUOTE})`;
  throw new AppError('validation_failed', `${param} ${JSON.stringify(input)}: ${message}`, {
    errors: [{ pointer: `/query/${param}`, message }],
  });
}

/** True for the quote spellings a symbol folds into USDT: USD, USDT, USDC, BUSD, FDUSD, TUSD (upper case). */
export function isDollarQuote(quote: string): boolean {
  return (QUOTE_ALIASES as readonly string[]).includes(quote);
}

/** Splits a canonical symbol into base and quote (`BTCUSDT` → BTC / USDT). */
export function splitSymbol(symbol: string): { base: string; quote: string } {
  for (const quote of [CANONICAL_QUOTE, ...OTHER_QUOTES]) {
    if (symbol.length > quote.length && symbol.endsWith(quote)) {
      return { base: symbol.slice(0, -quote.length), quote };
    }
  }
  return { base: symbol, quote: CANONICAL_QUOTE };
}

/** The ccxt unified spot symbol for a canonical symbol (`BTCUSDT` → `BTC/USDT`). */
export function toCcxtSymbol(symbol: string, quote?: string): string {
  const split = splitSymbol(symbol);
  return `${split.base}/${quote ?? split.quote}`;
}
