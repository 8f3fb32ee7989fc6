/**
 * The ports the on-chain module needs. Adapters (`src/adapters/chain/{evm,simulated}`) fill ChainSource;
 * the market module fills PriceSource; the composition root wires both.
 */

/** One value movement read from a block: a native transfer (logIndex -1) or an ERC-20 Transfer log. */
export interface RawTransfer {
  txHash: string;
  txIndex: number;
  /** Log index within the block; -1 for the transaction's native value. */
  logIndex: number;
  /** Lower-case 0x addresses. */
  from: string;
  to: string;
  /** Asset symbol as configured (ETH for native, USDT, USDC, WETH, ...). */
  asset: string;
  /** Lower-case token contract address; null for native. */
  tokenAddress: string | null;
  decimals: number;
  /** Raw integer units. */
  amountRaw: bigint;
}

export interface ChainBlock {
  number: number;
  /** Lower-case 0x hashes. */
  hash: string;
  parentHash: string;
  timestampMs: number;
  transfers: RawTransfer[];
}

/** Which addresses the indexer cares about; adapters may use it to skip work (receipts, logs). */
export type AddressInterest = (address: string) => boolean;

export interface ChainSource {
  /** Chain name as used by labels and stored rows, e.g. `ethereum`. */
  readonly chain: string;
  /** Human description for logs, never containing credentials. */
  readonly description: string;
  /** The newest block number the node knows. */
  headNumber(): Promise<number>;
  /** The canonical hash at a height; undefined when the chain is shorter. */
  blockHash(number: number): Promise<string | undefined>;
  /** A block with its transfers of interest (successful transactions only); undefined when not present. */
  block(number: number, interest: AddressInterest): Promise<ChainBlock | undefined>;
  close?(): Promise<void>;
}

/**
 * USD price of an asset at a time; null/undefined when unknown. The market module's
 * `usdPrice(assetOrSymbol, atMs)` (async) fits as is; stablecoins are 1 without asking.
 */
export interface PriceSource {
  usdPrice(asset: string, atMs: number): Promise<number | null | undefined> | number | null | undefined;
}

export interface OnchainLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: OnchainLogger = { info() {}, warn() {}, error() {} };
