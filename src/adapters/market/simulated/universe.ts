import { type SymbolProfile, hash } from './model.ts';

/**
 * The simulated market's universe: which markets `MERIDIAN_SYMBOLS=top:N` lists and what each looks like.
 *
 * A profile is a pure function of the symbol: the seven default markets keep their hand-written profiles;
 * every other market of the universe has a rank (its place in the list below, or the number of a synthetic
 * name, `SIM0123USDT` being rank 123) and its profile follows from the rank — daily quote volume falling as a
 * power law of the rank, daily volatility rising and the loading on the market factor falling as volume
 * falls — plus a small spread drawn from a hash of the symbol. Nothing is drawn from the seed: the seed moves
 * prices (`PriceModel`), not which markets exist or how liquid they are.
 */

/** The seven default markets, as first written for the model (their prices, volumes and the forecasts rest on them). */
const HAND_WRITTEN: Readonly<Record<string, SymbolProfile>> = {
  BTCUSDT: { anchor: 64_000, dailyVol: 0.028, beta: 1, dailyQuoteVolume: 3e9 },
  ETHUSDT: { anchor: 3_100, dailyVol: 0.036, beta: 0.85, dailyQuoteVolume: 1.6e9 },
  SOLUSDT: { anchor: 150, dailyVol: 0.05, beta: 0.75, dailyQuoteVolume: 7e8 },
  BNBUSDT: { anchor: 580, dailyVol: 0.03, beta: 0.7, dailyQuoteVolume: 2.5e8 },
  XRPUSDT: { anchor: 0.6, dailyVol: 0.045, beta: 0.65, dailyQuoteVolume: 5e8 },
  ADAUSDT: { anchor: 0.45, dailyVol: 0.048, beta: 0.7, dailyQuoteVolume: 1.8e8 },
  DOGEUSDT: { anchor: 0.15, dailyVol: 0.06, beta: 0.7, dailyQuoteVolume: 4e8 },
};

/** A symbol the universe does not know (an explicitly configured `FOOUSDT`): the model's old single fallback. */
const FALLBACK: SymbolProfile = { anchor: 10, dailyVol: 0.05, beta: 0.7, dailyQuoteVolume: 5e7 };

/**
 * Well-known base assets after the seven, in rank order, with a typical price level (an anchor the price
 * mean-reverts to, not a quote). No stablecoins, no wrapped assets, and no one-letter bases: `SUSDT` cannot
 * be told apart from the quote `SUSDT` when written together (`canonicalCandidate` keeps it whole).
 */
const BUILT_IN: ReadonlyArray<readonly [base: string, anchor: number]> = [
  ['TRX', 0.12],
  ['TON', 6],
  ['AVAX', 30],
  ['LINK', 14],
  ['DOT', 6.5],
  ['SHIB', 0.00002],
  ['LTC', 75],
  ['BCH', 400],
  ['NEAR', 5],
  ['UNI', 8],
  ['POL', 0.5],
  ['ATOM', 7],
  ['XLM', 0.1],
  ['ETC', 25],
  ['APT', 8],
  ['ARB', 0.8],
  ['OP', 1.8],
  ['SUI', 1],
  ['FIL', 5],
  ['ICP', 10],
  ['HBAR', 0.08],
  ['PEPE', 0.00001],
  ['INJ', 25],
  ['AAVE', 120],
  ['MKR', 2_500],
  ['RENDER', 7],
  ['IMX', 1.6],
  ['STX', 1.8],
  ['SEI', 0.4],
  ['TIA', 7],
  ['ALGO', 0.15],
  ['VET', 0.03],
  ['GRT', 0.2],
  ['FTM', 0.5],
  ['EGLD', 35],
  ['SAND', 0.35],
  ['MANA', 0.4],
  ['AXS', 6],
  ['THETA', 1.5],
  ['XTZ', 0.8],
  ['EOS', 0.6],
  ['FLOW', 0.6],
  ['CRV', 0.35],
  ['LDO', 1.8],
  ['RUNE', 4.5],
  ['KAS', 0.15],
  ['JUP', 0.9],
  ['WIF', 2.2],
  ['BONK', 0.00002],
  ['FLOKI', 0.00015],
  ['ENA', 0.5],
  ['ORDI', 35],
  ['GALA', 0.025],
  ['CHZ', 0.07],
  ['SNX', 2],
  ['COMP', 55],
  ['DYDX', 1.5],
  ['ZEC', 30],
  ['XMR', 160],
  ['NEO', 12],
  ['KAVA', 0.5],
  ['QNT', 70],
];

/** The universe's names in rank order: the seven by their volume, then the built-in bases; synthetic after. */
const NAMED: readonly string[] = [
  ...Object.keys(HAND_WRITTEN).sort(
    (a, b) => HAND_WRITTEN[b]!.dailyQuoteVolume - HAND_WRITTEN[a]!.dailyQuoteVolume,
  ),
  ...BUILT_IN.map(([base]) => `${base}USDT`),
];
const RANK_OF = new Map(NAMED.map((symbol, i) => [symbol, i + 1]));
const ANCHOR_OF = new Map(BUILT_IN.map(([base, anchor]) => [`${base}USDT`, anchor]));

/** Synthetic names run to rank 9999 (four digits); the configuration allows fewer (`MERIDIAN_SYMBOLS`). */
export const MAX_SIMULATED_UNIVERSE = 9_999;
const SYNTHETIC = /^SIM(\d{4})USDT$/;

/** The name of the market at a rank: a named one, else `SIM` + the rank in four digits + `USDT`. */
function nameAt(rank: number): string {
  return NAMED[rank - 1] ?? `SIM${String(rank).padStart(4, '0')}USDT`;
}

/** The rank of a market of the universe, or undefined for a symbol it does not list. */
export function rankOf(symbol: string): number | undefined {
  const named = RANK_OF.get(symbol);
  if (named !== undefined) return named;
  const m = SYNTHETIC.exec(symbol);
  const rank = m ? Number(m[1]) : 0;
  return rank > NAMED.length && rank <= MAX_SIMULATED_UNIVERSE ? rank : undefined;
}

// Volume: the last hand-written rank's volume (ADA, rank 7, 1.8e8 USD a day) falling as a power law to 1e6 at
// rank 500 — V(r) = 1.8e8 · (r / 7)^−α with α = ln 180 / ln(500 / 7) ≈ 1.22: 1.5e8 at rank 8, 7e6 at 100,
// 4e5 at 1000. Rank 1 is BTC at 3e9.
const LAST_HAND_WRITTEN = { rank: 7, volume: 1.8e8 };
const ALPHA = Math.log(LAST_HAND_WRITTEN.volume / 1e6) / Math.log(500 / LAST_HAND_WRITTEN.rank);
const volumeAt = (rank: number) => LAST_HAND_WRITTEN.volume * (rank / LAST_HAND_WRITTEN.rank) ** -ALPHA;
/** How illiquid a volume is, 0 (BTC's 3e9) … 1 (rank 1000's and below). */
const LN_SPAN = Math.log(3e9 / volumeAt(1000));
const illiquidity = (volume: number) => Math.min(1, Math.max(0, Math.log(3e9 / volume) / LN_SPAN));

/** A number in [-1, 1) drawn from the symbol and what it is for. */
const spread = (symbol: string, what: string) => (hash(`universe|${what}|${symbol}`) / 2 ** 32) * 2 - 1;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const significant = (x: number, digits: number) => Number(x.toPrecision(digits));

/**
 * The profile of a market at a rank past the seven: volume from the rank; anchor from the built-in list or,
 * for a synthetic name, log-uniform over 0.0001 … 60,000; daily volatility 0.025 … 0.12 rising as volume falls
 * (0.044 at rank 8, ≈ 0.08 at 100, ≈ 0.11 at 500, ±15 %); loading on the market factor (`beta`, the model's
 * correlation with the common factor, at most 1) 0.9 … 0.4 falling as volume falls.
 */
function rankedProfile(symbol: string, rank: number): SymbolProfile {
  const volume = volumeAt(rank);
  const f = illiquidity(volume);
  const logLo = Math.log(1e-4);
  const logHi = Math.log(6e4);
  const anchor =
    ANCHOR_OF.get(symbol) ??
    significant(Math.exp(logLo + ((spread(symbol, 'anchor') + 1) / 2) * (logHi - logLo)), 4);
  return {
    anchor,
    dailyVol: clamp((0.025 + 0.095 * f ** 1.5) * Math.exp(0.15 * spread(symbol, 'vol')), 0.025, 0.12),
    beta: clamp(0.85 - 0.45 * f + 0.05 * spread(symbol, 'beta'), 0.4, 0.9),
    dailyQuoteVolume: volume,
  };
}

/** The profile of any symbol: hand-written, from its rank in the universe, or the fallback. Pure. */
export function profileOf(symbol: string): SymbolProfile {
  const written = HAND_WRITTEN[symbol];
  if (written) return written;
  const rank = rankOf(symbol);
  return rank === undefined ? FALLBACK : rankedProfile(symbol, rank);
}

export interface SimulatedMarket {
  symbol: string;
  /** 1 = the largest daily quote volume. */
  rank: number;
  profile: SymbolProfile;
}

/**
 * The `count` largest markets of the simulated universe, largest first: BTC, ETH, SOL, XRP, DOGE, BNB, ADA
 * (the seven default symbols, by their volume), then TRX, TON, AVAX, LINK, … and past the built-in list
 * `SIM0070USDT`, `SIM0071USDT`, …. Canonical BASEUSDT names that normalize to themselves.
 */
export function simulatedUniverse(count: number): SimulatedMarket[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SIMULATED_UNIVERSE)
    throw new RangeError(`the simulated universe has 1 to ${MAX_SIMULATED_UNIVERSE} markets, not ${count}`);
  return Array.from({ length: count }, (_, i) => {
    const symbol = nameAt(i + 1);
    return { symbol, rank: i + 1, profile: profileOf(symbol) };
  });
}
