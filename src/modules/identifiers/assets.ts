/**
 * Asset names as trackers and exchanges spell them (`BTC`, `bitcoin`, `XBT`, `Ethereum`, `usd coin`) →
 * the ticker Meridian uses. Portfolio rows are normalized through this list; a name it does not know is
 * refused rather than guessed. Tickers of the supported symbols' bases are always known.
 */
import type { Normalized } from './types.ts';

/** Dollar stablecoins: worth 1 USD wherever a price is needed (market, on-chain flows, portfolio). */
const STABLECOINS = ['USDT', 'USDC', 'DAI', 'BUSD', 'FDUSD', 'TUSD', 'USDP', 'PYUSD'] as const;
type Stablecoin = (typeof STABLECOINS)[number];

/** The dollar spellings a symbol's quote may take and still mean USDT (`BTC/USDC`, `XBTUSD` → …USDT). */
export const DOLLAR_QUOTES = ['USD', 'USDT', 'USDC', 'BUSD', 'FDUSD', 'TUSD'] as const satisfies readonly (
  | 'USD'
  | Stablecoin
)[];

const DOLLARS = new Set<string>(['USD', ...STABLECOINS]);

/** True for USD and the dollar stablecoins (upper-case tickers). */
export function isDollar(asset: string): boolean {
  return DOLLARS.has(asset);
}

/** Wrapped and staked assets priced as their underlying asset (`WETH` → `ETH`). */
const WRAPPED_ASSETS: Readonly<Record<string, string>> = {
  WETH: 'ETH',
  STETH: 'ETH',
  WSTETH: 'ETH',
  WBTC: 'BTC',
  CBBTC: 'BTC',
  WBNB: 'BNB',
  WSOL: 'SOL',
};

/** The asset whose price values this one: `WETH` → `ETH`, others unchanged (upper-case tickers). */
export function underlyingAsset(asset: string): string {
  return WRAPPED_ASSETS[asset] ?? asset;
}

const ASSETS: Record<string, readonly string[]> = {
  BTC: ['bitcoin', 'xbt'],
  ETH: ['ethereum', 'ether'],
  SOL: ['solana'],
  BNB: ['binance coin', 'bnb chain', 'binancecoin'],
  XRP: ['ripple'],
  ADA: ['cardano'],
  DOGE: ['dogecoin', 'xdg'],
  USDT: ['tether', 'tether usd'],
  USDC: ['usd coin', 'usdcoin'],
  DAI: [],
  BUSD: ['binance usd'],
  FDUSD: ['first digital usd'],
  TUSD: ['trueusd'],
  WBTC: ['wrapped bitcoin'],
  WETH: ['wrapped ether', 'wrapped ethereum'],
  LTC: ['litecoin'],
  BCH: ['bitcoin cash'],
  ETC: ['ethereum classic'],
  DOT: ['polkadot'],
  AVAX: ['avalanche'],
  LINK: ['chainlink'],
  MATIC: ['polygon'],
  POL: [],
  TRX: ['tron'],
  ATOM: ['cosmos'],
  XLM: ['stellar', 'str'],
  UNI: ['uniswap'],
  SHIB: ['shiba inu'],
  TON: ['toncoin'],
  NEAR: ['near protocol'],
  ARB: ['arbitrum'],
  OP: ['optimism'],
  XMR: ['monero'],
  ALGO: ['algorand'],
  FIL: ['filecoin'],
  APT: ['aptos'],
  SUI: [],
  PEPE: [],
  AAVE: [],
  MKR: ['maker'],
};

const byName = new Map<string, string>();
for (const [ticker, names] of Object.entries(ASSETS)) {
  byName.set(ticker.toLowerCase(), ticker);
  for (const name of names) byName.set(name, ticker);
}

/**
 * The ticker for an asset name (any case, surrounding spaces ignored; `XBT` → `BTC`, `bitcoin` → `BTC`), or
 * `undefined` when the name is not known (there is no fallback asset). `extra` adds tickers that are known
 * too (the supported symbols' bases, which may be configured beyond the built-in list).
 */
export function normalizeAsset(input: string, extra: readonly string[] = []): Normalized<string> | undefined {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const upper = text.toUpperCase();
  const value = byName.get(text) ?? (extra.includes(upper) ? upper : undefined);
  return value === undefined ? undefined : { value, requested: input, changed: value !== input };
}
