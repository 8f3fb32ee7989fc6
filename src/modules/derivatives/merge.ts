import type { DerivativesSummary, VenueReading, VenueView } from './types.ts';

export interface MergeOptions {
  now: number;
  /** A venue whose reading is older than this is stale and left out. */
  staleMs: number;
  /** With 3+ fresh venues, a mark price further than this from their median is an outlier, left out. */
  outlierBps: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * The venue rules of the spot merge, applied to perpetuals: a stale venue (no reading for `staleMs`) and an
 * outlier (with three or more fresh venues, a mark price more than `outlierBps` from their median) are shown
 * with weight 0 and left out. Included venues are weighted by open interest in USD when every included venue
 * reports it, else equally. Each merged metric averages the included venues that report it, re-weighted
 * among them; a metric no included venue reports is null — never 0.
 */
export function mergeReadings(
  symbol: string,
  readings: readonly VenueReading[],
  options: MergeOptions,
): Omit<DerivativesSummary, 'liquidations' | 'openInterest'> & {
  openInterest: { contracts: number | null; usd: number | null } | null;
} {
  const views: VenueView[] = readings.map((reading) => ({
    venue: reading.venue,
    weight: 0,
    stale: options.now - reading.time > options.staleMs,
    outlier: false,
    reading,
  }));
  const marks = views.filter((v) => !v.stale && v.reading.markPrice !== undefined);
  if (marks.length >= 3) {
    const med = median(marks.map((v) => v.reading.markPrice!));
    for (const v of marks)
      if (Math.abs(v.reading.markPrice! / med - 1) * 10_000 > options.outlierBps) v.outlier = true;
  }
  const included = views.filter((v) => !v.stale && !v.outlier);
  const byOi = included.length > 0 && included.every((v) => (v.reading.openInterestUsd ?? 0) > 0);
  const totalOi = byOi ? included.reduce((s, v) => s + v.reading.openInterestUsd!, 0) : 0;
  for (const v of included) v.weight = byOi ? v.reading.openInterestUsd! / totalOi : 1 / included.length;

  /** The weighted mean of a field over the included venues that have it; null when none has it. */
  const mean = (field: (r: VenueReading) => number | undefined): number | null => {
    let w = 0;
    let sum = 0;
    for (const v of included) {
      const x = field(v.reading);
      if (x === undefined || !Number.isFinite(x)) continue;
      w += v.weight;
      sum += v.weight * x;
    }
    return w > 0 ? sum / w : null;
  };
  /** The plain sum over included venues that have it (open interest adds up across venues). */
  const total = (field: (r: VenueReading) => number | undefined): number | null => {
    let seen = false;
    let sum = 0;
    for (const v of included) {
      const x = field(v.reading);
      if (x === undefined || !Number.isFinite(x)) continue;
      seen = true;
      sum += x;
    }
    return seen ? sum : null;
  };

  const rate = mean((r) => r.fundingRate);
  const intervalHours = mean((r) => (r.fundingRate === undefined ? undefined : r.fundingIntervalHours)) ?? 8;
  const nextTimes = included
    .map((v) => v.reading.nextFundingTime)
    .filter((t): t is number => t !== undefined);
  const withBasis = (r: VenueReading) =>
    r.markPrice !== undefined && r.indexPrice !== undefined && r.indexPrice > 0;
  const mark = mean((r) => (withBasis(r) ? r.markPrice : undefined));
  const index = mean((r) => (withBasis(r) ? r.indexPrice : undefined));
  const contracts = total((r) => r.openInterestContracts);
  const usd = total((r) => r.openInterestUsd);
  const asOf = included.length ? Math.max(...included.map((v) => v.reading.time)) : null;
  return {
    symbol,
    asOf: asOf ?? (views.length ? Math.max(...views.map((v) => v.reading.time)) : null),
    stale: included.length === 0,
    funding:
      rate === null
        ? null
        : {
            rate,
            predictedRate: mean((r) => r.predictedFundingRate),
            nextFundingTime: nextTimes.length ? Math.min(...nextTimes) : null,
            intervalHours: Math.round(intervalHours * 100) / 100,
          },
    openInterest: contracts === null && usd === null ? null : { contracts, usd },
    basis:
      mark === null || index === null
        ? null
        : { bps: (mark / index - 1) * 10_000, markPrice: mark, indexPrice: index, intervalHours },
    venues: views,
  };
}

const YEAR_HOURS = 365 * 24;

/** A rate per funding period as a yearly percentage (simple, not compounded). */
export const annualizedPct = (ratePerPeriod: number, intervalHours: number): number =>
  ratePerPeriod * (YEAR_HOURS / intervalHours) * 100;
