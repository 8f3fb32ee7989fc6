/** One lot of an asset held by an account. Quantities and costs are exact decimals (NUMERIC, strings here). */
export interface PortfolioRowsTable {
  id: string;
  account_id: string;
  asset: string;
  quantity: string;
  cost_basis: string | null;
  cost_currency: string | null;
  acquired_at: number | null;
  venue: string | null;
  note: string | null;
  /** The caller's id for the row; re-importing it updates the row. Unique per account when set. */
  external_id: string | null;
  /** The import that last wrote the row. */
  import_id: string;
  /** The row's index in the import that created it: rows list in the order they were imported. */
  position: number;
  created_at: number;
  updated_at: number;
}

export interface PortfolioImportsTable {
  id: string;
  account_id: string;
  format: 'json' | 'csv';
  row_count: number;
  inserted: number;
  updated: number;
  unchanged: number;
  idempotency_key: string | null;
  created_at: number;
}

/**
 * An `Idempotency-Key` per account: claimed (`running`) when a request starts, `done` with the answer it
 * gave once the import commits (in the same transaction), deleted when the request fails without effect.
 */
export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** SHA-256 of what makes two requests "the same": method, path, query, content type and body. */
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

export interface PortfolioTables {
  portfolio_rows: PortfolioRowsTable;
  portfolio_imports: PortfolioImportsTable;
  idempotency_keys: IdempotencyKeysTable;
}
