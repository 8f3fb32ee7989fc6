import type { RowField } from './types.ts';

/**
 * CSV header spellings accepted for each row field, compared after lower-casing and dropping everything
 * but letters and digits (`Cost Basis (USD)` → `costbasisusd`). Covers the column names of the common
 * tracker and exchange exports (Koinly, CoinTracker, CoinStats, Coinbase, Kraken); docs/portfolio.md has
 * the table. Columns not listed here are ignored and reported back as such.
 */
const HEADER_ALIASES: Readonly<Record<RowField, readonly string[]>> = {
  asset: ['asset', 'currency', 'coin', 'coinsymbol', 'symbol', 'token', 'ticker', 'receivedcurrency'],
  quantity: [
    'quantity',
    'amount',
    'qty',
    'receivedquantity',
    'receivedamount',
    'quantitytransacted',
    'holdings',
  ],
  costBasis: [
    'costbasis',
    'costbasisusd',
    'cost',
    'costusd',
    'networthamount',
    'totalinclusiveoffeesandorspread',
    'totalcost',
    'bookcost',
  ],
  costCurrency: ['costcurrency', 'networthcurrency', 'pricecurrency', 'spotpricecurrency'],
  acquiredAt: ['acquiredat', 'acquired', 'date', 'koinlydate', 'timestamp', 'time', 'dateutc', 'datetime'],
  venue: ['venue', 'exchange', 'wallet', 'platform', 'source'],
  note: ['note', 'notes', 'description', 'memo', 'comment'],
  externalId: ['externalid', 'id', 'txhash', 'txid', 'transactionid', 'reference', 'refid'],
};

const byAlias = new Map<string, RowField>();
for (const [field, aliases] of Object.entries(HEADER_ALIASES) as Array<[RowField, readonly string[]]>) {
  for (const alias of aliases) byAlias.set(alias, field);
}

const headerKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The row field a CSV header maps to, if any. */
export const fieldOfHeader = (header: string): RowField | undefined => byAlias.get(headerKey(header));
