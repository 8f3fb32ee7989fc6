import type { MarketItem } from '../api/types.ts';

/** Bid + ask USD depth within ±band % of the merged mid, or null when the API did not report that band. */
export function depthWithin(item: Pick<MarketItem, 'liquidity'>, bandPct: number): number | null {
  const band = item.liquidity.depth.find((d) => d.bandPct === bandPct);
  return band ? band.bidUsd + band.askUsd : null;
}

/** Venues in the merge, and those left out as stale or outlier, with their names for a tooltip. */
export function venueCounts(item: Pick<MarketItem, 'venues'>) {
  const stale = item.venues.filter((v) => v.stale);
  const outlier = item.venues.filter((v) => v.outlier && !v.stale);
  const used = item.venues.filter((v) => !v.stale && !v.outlier && v.weight > 0);
  const names = (list: typeof item.venues) => list.map((v) => v.venue).join(', ') || 'none';
  return {
    used: used.length,
    stale: stale.length,
    outlier: outlier.length,
    title: `Used: ${names(used)}. Stale: ${names(stale)}. Outlier: ${names(outlier)}.`,
  };
}
