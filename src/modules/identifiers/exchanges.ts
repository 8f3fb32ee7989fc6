import { AppError } from '../../shared/errors.ts';
import type { Normalized } from './types.ts';

/** Exchanges the service knows by name (on-chain labels, market venues). Lower case, canonical. */
export const KNOWN_EXCHANGES = [
  'binance',
  'coinbase',
  'kraken',
  'okx',
  'bybit',
  'bitfinex',
  'bitstamp',
  'kucoin',
  'gateio',
  'htx',
  'gemini',
  'bitget',
  'mexc',
] as const;
export type Exchange = (typeof KNOWN_EXCHANGES)[number];

/** Other spellings, after lower-casing and removing spaces, dots, dashes and underscores. */
const ALIASES: Record<string, Exchange> = {
  okex: 'okx',
  coinbasepro: 'coinbase',
  coinbaseexchange: 'coinbase',
  coinbaseadvanced: 'coinbase',
  gdax: 'coinbase',
  binancecom: 'binance',
  krakencom: 'kraken',
  okxcom: 'okx',
  gate: 'gateio',
  huobi: 'htx',
  huobipro: 'htx',
};

export interface ExchangeNormalization extends Normalized<string> {
  /** A canonical exchange (or one of `extra`); otherwise `value` is the name in plain form. */
  known: boolean;
}

export interface ExchangeOptions {
  /** An unknown name is an `unknown_exchange` error (400) instead of an answer with `known: false`. */
  strict?: boolean;
  /** Parameter name used in the error's JSON pointer. Default `exchange`. */
  param?: string;
  /**
   * Further names known in plain form (an operator's address labels). When given, the error lists the
   * known exchanges and these together, sorted.
   */
  extra?: readonly string[];
}

/**
 * The one exchange normalizer (request parameters, label files, alert rules). Names are case-insensitive
 * with aliases (`okex`→`okx`, `coinbase pro`→`coinbase`); any other name is answered in plain form (trimmed,
 * lower case, inner spaces collapsed) with `known: false` — or, with `strict`, refused with an
 * `unknown_exchange` error (400) listing the known ones.
 */
export function normalizeExchange(input: string, options: ExchangeOptions = {}): ExchangeNormalization {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[\s._-]+/g, '');
  const canonical = KNOWN_EXCHANGES.find((e) => e === key) ?? ALIASES[key];
  if (canonical !== undefined)
    return { value: canonical, requested: input, changed: canonical !== input, known: true };
  const plain = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const known = options.extra?.includes(plain) ?? false;
  if (!known && options.strict) {
    const list = options.extra ? knownExchangeNames(options.extra) : [...KNOWN_EXCHANGES];
    const param = options.param ?? 'exchange';
    throw new AppError(
      'unknown_exchange',
      `${param} ${JSON.stringify(input)} is not known; known exchanges: ${list.join(', ')}`,
      {
        errors: [{ pointer: `/query/${param}`, message: `must be one of ${list.join(', ')}` }],
        extra: { known: list },
      },
    );
  }
  return { value: plain, requested: input, changed: plain !== input, known };
}

/** The known exchanges and `extra` names together, sorted. */
export function knownExchangeNames(extra: readonly string[]): string[] {
  return [...new Set<string>([...KNOWN_EXCHANGES, ...extra])].sort();
}
