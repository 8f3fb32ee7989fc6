/**
 * Asset names as trackers and exchanges spell them (`BTC`, `bitcoin`, `XBT`, `Ethereum`, `usd coin`) →
 * the ticker Meridian uses. Portfolio rows are normalized through this list; a name it does not know is
 * refused rather than guessed. Tickers of the supported symbols' bases are always known.
 */
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
 * `undefined` when the name is not known. `extra` adds tickers that are known too (the supported symbols'
 * bases, which may be configured beyond the built-in list).
 */
export function normalizeAsset(input: string, extra: readonly string[] = []): string | undefined {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const known = byName.get(text);
  if (known) return known;
  const upper = text.toUpperCase();
  return extra.includes(upper) ? upper : undefined;
}
