/** A token a chain indexer follows (configured, or the built-in list for the chain). */
export interface ChainTokenSpec {
  symbol: string;
  /** Lower-case 0x address. */
  address: string;
  /** Used only when the contract does not answer `decimals()`; the contract's own value wins. */
  decimals?: number;
}
