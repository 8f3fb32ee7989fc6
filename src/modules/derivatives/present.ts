import { annualizedPct } from './merge.ts';
import type { DerivativesSummary, Liquidation } from './types.ts';

/** A symbol's derivatives as `GET /api/derivatives` and the `/market` push channel answer it. */
export interface DerivativesView {
  symbol: string;
  funding: {
    rate: number;
    annualizedPct: number;
    predictedRate: number | null;
    nextFundingTime: string | null;
    intervalHours: number;
  } | null;
  openInterest: { contracts: number | null; usd: number | null; change24hPct: number | null } | null;
  basis: { bps: number; annualizedPct: number; markPrice: number; indexPrice: number } | null;
  liquidations: {
    h1: { longUsd: number; shortUsd: number };
    h24: { longUsd: number; shortUsd: number };
  } | null;
  venues: Array<{
    venue: string;
    weight: number;
    stale: boolean;
    outlier: boolean;
    fundingRate: number | null;
    predictedFundingRate: number | null;
    nextFundingTime: string | null;
    openInterestContracts: number | null;
    openInterestUsd: number | null;
    markPrice: number | null;
    indexPrice: number | null;
    basisBps: number | null;
    liquidations: boolean;
    updatedAt: string;
  }>;
  stale: boolean;
  updatedAt: string | null;
}

export interface LiquidationView {
  venue: string;
  symbol: string;
  side: 'long' | 'short';
  price: number;
  size: number;
  usd: number;
  time: string;
}

const iso = (ms: number | undefined | null) =>
  ms === undefined || ms === null ? null : new Date(ms).toISOString();
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function presentSummary(s: DerivativesSummary, liquidationVenues: readonly string[]): DerivativesView {
  return {
    symbol: s.symbol,
    funding: s.funding && {
      rate: s.funding.rate,
      annualizedPct: round(annualizedPct(s.funding.rate, s.funding.intervalHours), 4),
      predictedRate: s.funding.predictedRate,
      nextFundingTime: iso(s.funding.nextFundingTime),
      intervalHours: s.funding.intervalHours,
    },
    openInterest: s.openInterest,
    basis: s.basis && {
      bps: round(s.basis.bps, 4),
      annualizedPct: round(annualizedPct(s.basis.bps / 10_000, s.basis.intervalHours), 4),
      markPrice: s.basis.markPrice,
      indexPrice: s.basis.indexPrice,
    },
    liquidations: s.liquidations,
    venues: s.venues.map((v) => {
      const r = v.reading;
      const basis =
        r.markPrice !== undefined && r.indexPrice !== undefined && r.indexPrice > 0
          ? round((r.markPrice / r.indexPrice - 1) * 10_000, 4)
          : null;
      return {
        venue: v.venue,
        weight: round(v.weight, 6),
        stale: v.stale,
        outlier: v.outlier,
        fundingRate: r.fundingRate ?? null,
        predictedFundingRate: r.predictedFundingRate ?? null,
        nextFundingTime: iso(r.nextFundingTime),
        openInterestContracts: r.openInterestContracts ?? null,
        openInterestUsd: r.openInterestUsd ?? null,
        markPrice: r.markPrice ?? null,
        indexPrice: r.indexPrice ?? null,
        basisBps: basis,
        liquidations: liquidationVenues.includes(v.venue),
        updatedAt: new Date(r.time).toISOString(),
      };
    }),
    stale: s.stale,
    updatedAt: iso(s.asOf),
  };
}

export const presentLiquidation = (l: Liquidation): LiquidationView => ({
  venue: l.venue,
  symbol: l.symbol,
  side: l.side,
  price: l.price,
  size: l.size,
  usd: l.usd,
  time: new Date(l.time).toISOString(),
});
