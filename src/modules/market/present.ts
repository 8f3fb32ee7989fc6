import type { MarketSnapshot } from './types.ts';

/** The public JSON shape of one symbol in GET /api/market-data (docs/market.md). */
export interface MarketDataItem {
  symbol: string;
  price: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  spreadBps: number | null;
  change24hPct: number | null;
  high24h: number | null;
  low24h: number | null;
  volume24h: number;
  quoteVolume24h: number;
  vwap24h: number | null;
  liquidity: {
    depth: Array<{ bandPct: number; bidUsd: number; askUsd: number }>;
    slippage: { notional: number; buyBps: number | null; sellBps: number | null };
    bookImbalance: number | null;
  };
  tradeImbalance5m: number | null;
  fundingRate: number | null;
  basisBps: number | null;
  venues: Array<{
    venue: string;
    price: number | null;
    spreadBps: number | null;
    volume24h: number;
    quoteVolume24h: number;
    weight: number;
    stale: boolean;
    outlier: boolean;
    updatedAt: string | null;
  }>;
  updatedAt: string;
}

/** Rounds to `digits` significant digits (prices keep their precision, noise digits go). */
const sig = (x: number | null, digits = 10): number | null =>
  x === null ? null : Number(x.toPrecision(digits));
const fix = (x: number | null, places: number): number | null =>
  x === null ? null : Math.round(x * 10 ** places) / 10 ** places;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The public slippage figures (bps to 0.001). */
export const presentSlippage = (
  slippage: MarketSnapshot['slippage'],
): MarketDataItem['liquidity']['slippage'] => ({
  notional: slippage.notional,
  buyBps: fix(slippage.buyBps, 3),
  sellBps: fix(slippage.sellBps, 3),
});

export function presentSnapshot(
  s: MarketSnapshot,
  slippage: MarketSnapshot['slippage'] = s.slippage,
): MarketDataItem {
  return {
    symbol: s.symbol,
    price: sig(s.mid),
    bestBid: sig(s.bestBid),
    bestAsk: sig(s.bestAsk),
    spreadBps: fix(s.spreadBps, 3),
    change24hPct: fix(s.change24hPct, 4),
    high24h: sig(s.high24h),
    low24h: sig(s.low24h),
    volume24h: sig(s.volume24h)!,
    quoteVolume24h: fix(s.quoteVolume24h, 2)!,
    vwap24h: sig(s.vwap24h),
    liquidity: {
      depth: (['0.5%', '1%', '2%'] as const).map((band) => ({
        bandPct: Number.parseFloat(band),
        bidUsd: fix(s.depth[band].bid, 2)!,
        askUsd: fix(s.depth[band].ask, 2)!,
      })),
      slippage: presentSlippage(slippage),
      bookImbalance: fix(s.bookImbalance, 4),
    },
    tradeImbalance5m: fix(s.tradeImbalance5m, 4),
    fundingRate: sig(s.fundingRate, 6),
    basisBps: fix(s.basisBps, 3),
    venues: s.venues.map((v) => ({
      venue: v.venue,
      price: sig(v.price),
      spreadBps: fix(v.spreadBps, 3),
      volume24h: sig(v.volume24h)!,
      quoteVolume24h: fix(v.quoteVolume24h, 2)!,
      weight: fix(v.weight, 4)!,
      stale: v.stale,
      outlier: v.outlier,
      updatedAt: iso(v.updatedAt),
    })),
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}
