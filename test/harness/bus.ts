import type { MarketSnapshotMessage } from '../../src/modules/market/index.ts';

/**
 * A `market.snapshot` message in the shape the market job publishes (app/market.ts): `mids` per symbol (books
 * without levels), optional open 1-minute bars, a market-data body (default: no items) and the term.
 */
export function snapshotMessage(
  mids: Record<string, number>,
  at: number,
  options: { open?: Record<string, number[]>; body?: string; term?: number } = {},
): MarketSnapshotMessage {
  const books: MarketSnapshotMessage['books'] = {};
  for (const [symbol, mid] of Object.entries(mids)) books[symbol] = { mid, dp: null, bids: [], asks: [] };
  const open: MarketSnapshotMessage['open'] = {};
  for (const [symbol, bar] of Object.entries(options.open ?? {})) open[symbol] = { '1m': bar };
  return {
    symbols: Object.keys(mids),
    at,
    body: options.body ?? '{"data":[]}',
    term: options.term ?? 0,
    books,
    open,
  };
}
