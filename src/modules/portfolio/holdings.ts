import { Decimal } from './decimal.ts';

/** The market's view of one asset, in USD. */
export interface AssetQuote {
  price: number;
  /** 24 h change of the price in percent; null when unknown. */
  change24hPct: number | null;
  /** When the price was last updated (ms); null when unknown. */
  asOf: number | null;
}

/** Prices for holdings: the market module's consolidated mid (stablecoins at 1). Null when unpriced. */
export interface PricePort {
  quote(asset: string): AssetQuote | null;
}

export interface Holding {
  asset: string;
  quantity: string;
  rows: number;
  price: number | null;
  priceAsOf: number | null;
  valueUsd: Decimal | null;
  /** Sum of the rows' costs; null when any row of the asset has no cost (P&L would be wrong). */
  costBasisUsd: Decimal | null;
  unrealizedPnlUsd: Decimal | null;
  unrealizedPnlPct: number | null;
  allocationPct: number | null;
  change24hPct: number | null;
  change24hUsd: Decimal | null;
}

export interface Totals {
  valueUsd: Decimal;
  /** Cost, P&L over the holdings that have both a price and a full cost basis. */
  costBasisUsd: Decimal;
  unrealizedPnlUsd: Decimal;
  unrealizedPnlPct: number | null;
  change24hUsd: Decimal;
  change24hPct: number | null;
  /** Assets held but not valued (no market price): never counted as worth 0. */
  unpricedAssets: string[];
  /** Assets whose P&L is unknown (a row without a cost basis). */
  assetsWithoutCost: string[];
}

const pct = (part: Decimal, whole: Decimal): number | null =>
  whole.isZero() ? null : Math.round(part.div(whole).times(10_000).toNumber()) / 100;

/** Aggregates rows into positions per asset, valued at the given prices; sums are exact decimals. */
export function computeHoldings(
  rows: ReadonlyArray<{ asset: string; quantity: string; costBasis: string | null }>,
  prices: PricePort,
): { holdings: Holding[]; totals: Totals } {
  const byAsset = new Map<string, { quantity: Decimal; cost: Decimal | null; rows: number }>();
  for (const row of rows) {
    const entry = byAsset.get(row.asset) ?? { quantity: new Decimal(0), cost: new Decimal(0), rows: 0 };
    entry.quantity = entry.quantity.plus(row.quantity);
    entry.cost = entry.cost === null || row.costBasis === null ? null : entry.cost.plus(row.costBasis);
    entry.rows++;
    byAsset.set(row.asset, entry);
  }
  const holdings: Holding[] = [];
  const totals: Totals = {
    valueUsd: new Decimal(0),
    costBasisUsd: new Decimal(0),
    unrealizedPnlUsd: new Decimal(0),
    unrealizedPnlPct: null,
    change24hUsd: new Decimal(0),
    change24hPct: null,
    unpricedAssets: [],
    assetsWithoutCost: [],
  };
  for (const [asset, entry] of byAsset) {
    const quote = prices.quote(asset);
    const value = quote ? entry.quantity.times(quote.price) : null;
    const pnl = value && entry.cost ? value.minus(entry.cost) : null;
    const change =
      value && quote?.change24hPct != null ? value.minus(value.div(1 + quote.change24hPct / 100)) : null;
    holdings.push({
      asset,
      quantity: entry.quantity.toFixed(),
      rows: entry.rows,
      price: quote?.price ?? null,
      priceAsOf: quote?.asOf ?? null,
      valueUsd: value,
      costBasisUsd: entry.cost,
      unrealizedPnlUsd: pnl,
      unrealizedPnlPct: pnl && entry.cost ? pct(pnl, entry.cost) : null,
      allocationPct: null,
      change24hPct: quote?.change24hPct ?? null,
      change24hUsd: change,
    });
    if (!value) totals.unpricedAssets.push(asset);
    else totals.valueUsd = totals.valueUsd.plus(value);
    if (entry.cost === null) totals.assetsWithoutCost.push(asset);
    if (pnl && entry.cost) {
      totals.costBasisUsd = totals.costBasisUsd.plus(entry.cost);
      totals.unrealizedPnlUsd = totals.unrealizedPnlUsd.plus(pnl);
    }
    if (change) totals.change24hUsd = totals.change24hUsd.plus(change);
  }
  for (const h of holdings) if (h.valueUsd) h.allocationPct = pct(h.valueUsd, totals.valueUsd);
  totals.unrealizedPnlPct = pct(totals.unrealizedPnlUsd, totals.costBasisUsd);
  totals.change24hPct = pct(totals.change24hUsd, totals.valueUsd.minus(totals.change24hUsd));
  holdings.sort((a, b) =>
    a.valueUsd && b.valueUsd
      ? b.valueUsd.cmp(a.valueUsd) || a.asset.localeCompare(b.asset)
      : a.valueUsd
        ? -1
        : b.valueUsd
          ? 1
          : a.asset.localeCompare(b.asset),
  );
  totals.unpricedAssets.sort();
  totals.assetsWithoutCost.sort();
  return { holdings, totals };
}
