/**
 * On-chain tables. One flow row per (chain, tx hash, log index, exchange side): a transfer between two
 * different exchanges is a withdrawal for one and a deposit for the other, so it yields two rows that share
 * the transfer key. Native transfers use log index -1.
 */
export interface OnchainFlowsTable {
  chain: string;
  tx_hash: string;
  log_index: number;
  exchange: string;
  tx_index: number;
  block_number: number;
  block_hash: string;
  block_time: number;
  direction: 'deposit' | 'withdrawal' | 'internal';
  asset: string;
  token_address: string | null;
  /** Exact decimal string (NUMERIC in the database). */
  amount: string;
  /** Raw integer units (NUMERIC). */
  amount_raw: string;
  decimals: number;
  usd_value: number | null;
  from_address: string;
  from_exchange: string | null;
  from_tag: string | null;
  to_address: string;
  to_exchange: string | null;
  to_tag: string | null;
  indexed_at: number;
  /** Version hash of the label set that classified the flow; null for rows from before it was kept. */
  label_version: string | null;
}

/** Recently indexed block hashes, kept to detect reorgs (parent hash mismatch) and find the common ancestor. */
export interface OnchainBlocksTable {
  chain: string;
  number: number;
  hash: string;
  parent_hash: string;
  block_time: number;
}

/** The last fully indexed block per chain; written in the same transaction as that block's flows. */
export interface OnchainCheckpointsTable {
  chain: string;
  block_number: number;
  block_hash: string;
  updated_at: number;
  /** Time of the checkpoint block; null for checkpoints written before it was kept. */
  block_time: number | null;
  /** Time of the first block this chain's indexer stored: flows exist from here on (netflow coverage). */
  first_block_time: number | null;
}

/** Deposits and withdrawals summed per chain, exchange, asset and hour; kept by triggers on onchain_flows. */
export interface OnchainNetflowHourlyTable {
  chain: string;
  exchange: string;
  asset: string;
  hour: number;
  /** Exact decimal strings (NUMERIC). */
  inflow: string;
  outflow: string;
  inflow_usd: string;
  outflow_usd: string;
  flows: string;
  unpriced: string;
}

export interface OnchainTables {
  onchain_flows: OnchainFlowsTable;
  onchain_netflow_hourly: OnchainNetflowHourlyTable;
  onchain_blocks: OnchainBlocksTable;
  onchain_checkpoints: OnchainCheckpointsTable;
}
