import { AppError } from '../../shared/errors.ts';

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

export interface ExchangeNormalization {
  exchange: Exchange;
  requested: string;
  changed: boolean;
}

/**
 * Exchange names are case-insensitive with aliases (`okex`→`okx`, `coinbase pro`→`coinbase`); an unknown
 * name is an `unknown_exchange` error (400) listing the known ones.
 */
export function normalizeExchange(input: string, options: { param?: string } = {}): ExchangeNormalization {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[\s._-]+/g, '');
  const exchange = (KNOWN_EXCHANGES as readonly string[]).includes(key) ? (key as Exchange) : ALIASES[key];
  if (exchange === undefined) {
    const param = options.param ?? 'exchange';
    throw new AppError(
      'unknown_exchange',
      `${param} ${JSON.stringify(input)} is not known; known exchanges: ${KNOWN_EXCHANGES.join(', ')}`,
      {
        errors: [{ pointer: `/query/${param}`, message: `must be one of ${KNOWN_EXCHANGES.join(', ')}` }],
        extra: { known: [...KNOWN_EXCHANGES] },
      },
    );
  }
  return { exchange, requested: input, changed: exchange !== input };
}
