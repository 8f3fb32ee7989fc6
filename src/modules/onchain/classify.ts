import { isDollar, underlyingAsset } from '../identifiers/index.ts';
import type { AddressBook } from './address-book.ts';
import { formatUnits } from 'viem/utils';
import { usdValue } from './usd-value.ts';
import type { ChainBlock, PriceSource, RawTransfer } from './ports.ts';
import { logAndIgnore, type WarnLog } from '../../shared/log-and-ignore.ts';

export type FlowDirection = 'deposit' | 'withdrawal' | 'internal';
export const FLOW_DIRECTIONS: readonly FlowDirection[] = ['deposit', 'withdrawal', 'internal'];

export interface FlowParty {
  address: string;
  exchange: string | null;
  tag: string | null;
}

/** A transfer seen from one exchange's side. */
export interface Flow {
  chain: string;
  txHash: string;
  txIndex: number;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  timeMs: number;
  exchange: string;
  direction: FlowDirection;
  asset: string;
  tokenAddress: string | null;
  /** Exact decimal string. */
  amount: string;
  /** Raw integer units as a decimal string. */
  amountRaw: string;
  decimals: number;
  usdValue: number | null;
  from: FlowParty;
  to: FlowParty;
  /** Version hash of the label set that classified it (null for rows stored before versions were kept). */
  labelVersion: string | null;
}

/** What classification needs of the address book: a lookup and the version of the labels behind it. */
export type LabelLookup = Pick<AddressBook, 'lookup' | 'version'>;

/** The asset whose price values this one (WETH → ETH; the identifiers module's wrapped-asset table). */
function priceAsset(asset: string): string {
  return underlyingAsset(asset.toUpperCase());
}

export async function unitPriceUsd(
  prices: PriceSource,
  asset: string,
  atMs: number,
): Promise<number | undefined> {
  const upper = priceAsset(asset);
  // Dollar stablecoins are 1.
  if (isDollar(upper)) return 1;
  const price = await prices.usdPrice(upper, atMs);
  return typeof price === 'number' && Number.isFinite(price) && price > 0 ? price : undefined;
}

/** Caches prices per asset and minute so a block with 100 transfers asks the market once per asset. */
export function createCachedPrices(prices: PriceSource, log: WarnLog, maxEntries = 4096) {
  const cache = new Map<string, Promise<number | undefined>>();
  return (asset: string, atMs: number): Promise<number | undefined> => {
    const key = `${priceAsset(asset)}:${Math.floor(atMs / 60_000)}`;
    let hit = cache.get(key);
    if (!hit) {
      // A failed lookup prices the flows of that asset and minute as unknown (usdValue null), logged.
      hit = unitPriceUsd(prices, asset, atMs).catch((error: unknown) => {
        logAndIgnore(log, `onchain: ${asset} price lookup failed; usdValue left unknown`)(error);
        return undefined;
      });
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
      cache.set(key, hit);
    }
    return hit;
  };
}

/**
 * Classifies one transfer against the address book:
 * - both sides labelled with the same exchange → one `internal` flow;
 * - only the receiver labelled → a `deposit`; only the sender → a `withdrawal`;
 * - both labelled, different exchanges → a withdrawal for the sender's and a deposit for the receiver's;
 * - neither labelled → nothing.
 */
export function classifyTransfer(
  transfer: RawTransfer,
  block: Pick<ChainBlock, 'number' | 'hash' | 'timestampMs'>,
  chain: string,
  book: LabelLookup,
  /** USD price of one unit of the transfer's asset at the block time. */
  unitPrice: number | undefined,
): Flow[] {
  if (transfer.amountRaw <= 0n) return [];
  const fromLabel = book.lookup(chain, transfer.from);
  const toLabel = book.lookup(chain, transfer.to);
  if (!fromLabel && !toLabel) return [];
  const amount = formatUnits(transfer.amountRaw, transfer.decimals);
  const usd = usdValue(amount, unitPrice) ?? null;
  const base = {
    chain,
    txHash: transfer.txHash,
    txIndex: transfer.txIndex,
    logIndex: transfer.logIndex,
    blockNumber: block.number,
    blockHash: block.hash,
    timeMs: block.timestampMs,
    asset: transfer.asset,
    tokenAddress: transfer.tokenAddress,
    amount,
    amountRaw: transfer.amountRaw.toString(),
    decimals: transfer.decimals,
    usdValue: usd,
    from: { address: transfer.from, exchange: fromLabel?.exchange ?? null, tag: fromLabel?.tag ?? null },
    to: { address: transfer.to, exchange: toLabel?.exchange ?? null, tag: toLabel?.tag ?? null },
    labelVersion: book.version,
  };
  if (fromLabel && toLabel && fromLabel.exchange === toLabel.exchange) {
    return [{ ...base, exchange: fromLabel.exchange, direction: 'internal' }];
  }
  const flows: Flow[] = [];
  if (fromLabel) flows.push({ ...base, exchange: fromLabel.exchange, direction: 'withdrawal' });
  if (toLabel) flows.push({ ...base, exchange: toLabel.exchange, direction: 'deposit' });
  return flows;
}

/** Stable public id of a flow: its idempotency key. */
export function flowId(flow: Pick<Flow, 'chain' | 'txHash' | 'logIndex' | 'exchange'>): string {
  return `${flow.chain}:${flow.txHash}:${flow.logIndex}:${flow.exchange}`;
}
