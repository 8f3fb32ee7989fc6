import type { Decimal } from './decimal.ts';
import type { Holding, Totals } from './holdings.ts';
import type { ImportRecord, PortfolioRow } from './repository.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** USD amounts derived from a market price: decimal strings rounded to the cent. */
const usd = (value: Decimal | null) => (value === null ? null : value.toFixed(2));

function presentHolding(h: Holding) {
  return {
    asset: h.asset,
    quantity: h.quantity,
    rows: h.rows,
    price: h.price,
    priceAsOf: iso(h.priceAsOf),
    valueUsd: usd(h.valueUsd),
    costBasisUsd: usd(h.costBasisUsd),
    unrealizedPnlUsd: usd(h.unrealizedPnlUsd),
    unrealizedPnlPct: h.unrealizedPnlPct,
    allocationPct: h.allocationPct,
    change24hPct: h.change24hPct,
    change24hUsd: usd(h.change24hUsd),
  };
}

function presentTotals(t: Totals) {
  return {
    valueUsd: t.valueUsd.toFixed(2),
    costBasisUsd: t.costBasisUsd.toFixed(2),
    unrealizedPnlUsd: t.unrealizedPnlUsd.toFixed(2),
    unrealizedPnlPct: t.unrealizedPnlPct,
    change24hUsd: t.change24hUsd.toFixed(2),
    change24hPct: t.change24hPct,
    unpricedAssets: t.unpricedAssets,
    assetsWithoutCost: t.assetsWithoutCost,
  };
}

export function presentPortfolio(result: { holdings: Holding[]; totals: Totals; asOf: number }) {
  return {
    holdings: result.holdings.map(presentHolding),
    totals: presentTotals(result.totals),
    asOf: new Date(result.asOf).toISOString(),
  };
}

export function presentRow(r: PortfolioRow) {
  return {
    id: r.id,
    asset: r.asset,
    quantity: r.quantity,
    costBasis: r.costBasis,
    costCurrency: r.costCurrency,
    acquiredAt: iso(r.acquiredAt),
    venue: r.venue,
    note: r.note,
    externalId: r.externalId,
    importId: r.importId,
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

export function presentImport(i: ImportRecord) {
  return {
    id: i.id,
    format: i.format,
    rows: i.rowCount,
    inserted: i.inserted,
    updated: i.updated,
    unchanged: i.unchanged,
    idempotencyKey: i.idempotencyKey,
    createdAt: iso(i.createdAt)!,
  };
}
