import { type Hex, type PublicClient, createPublicClient, http, parseAbi } from 'viem';
import type { ChainTokenSpec } from '../../../shared/chain-token.ts';
import type {
  AddressInterest,
  ChainBlock,
  ChainSource,
  RawTransfer,
} from '../../../modules/onchain/index.ts';

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

import { defaultTokens } from './tokens.ts';

export type TokenConfig = ChainTokenSpec;

const decimalsAbi = parseAbi(['function decimals() view returns (uint8)']);

export interface EvmSourceOptions {
  rpcUrl: string;
  chain?: string;
  /** When given, the node must report this chain id (checked once, before the first read). */
  chainId?: number;
  nativeAsset?: string;
  nativeDecimals?: number;
  /** Unset = the built-in list of the chain (tokens.ts). Decimals are read from each contract. */
  tokens?: TokenConfig[];
  /** Per-request timeout. */
  timeoutMs?: number;
}

const topicAddress = (topic: Hex | undefined): string | undefined =>
  topic && topic.length === 66 ? `0x${topic.slice(26)}`.toLowerCase() : undefined;

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  return name === 'BlockNotFoundError';
}

/**
 * Reads native ETH transfers and ERC-20 Transfer logs of the configured tokens over standard JSON-RPC.
 * Per block: `eth_getBlockByNumber` (with transactions), `eth_getLogs` by block hash (token logs), and, only
 * when a value-carrying transaction touches an address of interest, `eth_getBlockReceipts` by block hash
 * (falling back to per-transaction receipts) so reverted transactions are not counted. Reading logs and
 * receipts by hash keeps the whole block consistent even if the chain reorganises meanwhile.
 */
export function createEvmChainSource(options: EvmSourceOptions): ChainSource {
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, {
      batch: { batchSize: 100, wait: 0 },
      retryCount: 0,
      timeout: options.timeoutMs ?? 15_000,
    }),
    cacheTime: 0,
  });
  const chainName = options.chain ?? 'ethereum';
  const tokens = new Map(
    (options.tokens ?? defaultTokens(chainName)).map((t) => [t.address.toLowerCase(), t]),
  );
  /** Decimals per token, read from the contract the first time one of its transfers is seen. */
  const decimalsOf = new Map<string, Promise<number>>();
  function tokenDecimals(token: TokenConfig): Promise<number> {
    let hit = decimalsOf.get(token.address);
    if (!hit) {
      hit = client
        .readContract({ address: token.address as Hex, abi: decimalsAbi, functionName: 'decimals' })
        .then(
          (d) => Number(d),
          (error: unknown) => {
            // A contract without decimals(): the configured value, if any; otherwise the read fails (retried).
            if (token.decimals !== undefined) return token.decimals;
            throw error;
          },
        );
      // A failed read is not cached: the next block asks again.
      hit.catch(() => decimalsOf.delete(token.address));
      decimalsOf.set(token.address, hit);
    }
    return hit;
  }
  let chainIdChecked = options.chainId === undefined;
  async function checkChainId(): Promise<void> {
    if (chainIdChecked) return;
    const actual = await client.getChainId();
    if (actual !== options.chainId)
      throw new Error(
        `the node at ${url.protocol}//${url.host} serves chain id ${actual}, not ${options.chainId} (${chainName})`,
      );
    chainIdChecked = true;
  }
  const tokenAddresses = [...tokens.keys()] as Hex[];
  const nativeAsset = options.nativeAsset ?? 'ETH';
  const nativeDecimals = options.nativeDecimals ?? 18;
  let blockReceiptsSupported = true;
  const url = new URL(options.rpcUrl);

  async function successfulTxs(blockHash: Hex, hashes: Hex[]): Promise<Set<string>> {
    if (blockReceiptsSupported) {
      try {
        // Not in viem's public RPC schema: its parameters and answer are declared here.
        const receipts = await client.request<{
          Parameters: [Hex];
          ReturnType: Array<{ transactionHash: string; status: string; blockHash: string }> | null;
        }>({ method: 'eth_getBlockReceipts', params: [blockHash] });
        if (receipts) {
          const ok = new Set<string>();
          for (const r of receipts) {
            if (r.blockHash.toLowerCase() !== blockHash.toLowerCase())
              throw new Error('block receipts belong to another block (reorg in progress)');
            if (r.status === '0x1') ok.add(r.transactionHash.toLowerCase());
          }
          return ok;
        }
      } catch (error) {
        const code = (error as { code?: number })?.code;
        if (code !== -32601 && code !== -32602) throw error;
        blockReceiptsSupported = false;
      }
    }
    const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })));
    return new Set(
      receipts.filter((r) => r.status === 'success').map((r) => r.transactionHash.toLowerCase()),
    );
  }

  return {
    chain: chainName,
    description: `evm ${chainName} ${url.protocol}//${url.host}`,

    async headNumber() {
      await checkChainId();
      return Number(await client.getBlockNumber({ cacheTime: 0 }));
    },

    async blockHash(number) {
      try {
        const block = await client.getBlock({ blockNumber: BigInt(number) });
        return block.hash?.toLowerCase();
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async block(number, interest: AddressInterest): Promise<ChainBlock | undefined> {
      let block: Awaited<ReturnType<typeof client.getBlock<true, 'latest'>>>;
      try {
        block = await client.getBlock({ blockNumber: BigInt(number), includeTransactions: true });
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      if (!block.hash) return undefined;
      const blockHash = block.hash;
      const transfers: RawTransfer[] = [];
      const txs: Array<{
        hash: Hex;
        from: Hex;
        to: Hex | null;
        value: bigint;
        transactionIndex: number | null;
      }> = block.transactions;
      const nativeCandidates = txs.filter(
        (tx) => tx.value > 0n && tx.to && (interest(tx.from.toLowerCase()) || interest(tx.to.toLowerCase())),
      );
      const [logs, ok] = await Promise.all([
        tokenAddresses.length
          ? client.getLogs({ blockHash, address: tokenAddresses })
          : Promise.resolve([] as Awaited<ReturnType<typeof client.getLogs>>),
        nativeCandidates.length
          ? successfulTxs(
              blockHash,
              nativeCandidates.map((t) => t.hash),
            )
          : Promise.resolve(new Set<string>()),
      ]);
      for (const tx of nativeCandidates) {
        if (!ok.has(tx.hash.toLowerCase())) continue;
        transfers.push({
          txHash: tx.hash.toLowerCase(),
          txIndex: tx.transactionIndex ?? 0,
          logIndex: -1,
          from: tx.from.toLowerCase(),
          to: (tx.to as Hex).toLowerCase(),
          asset: nativeAsset,
          tokenAddress: null,
          decimals: nativeDecimals,
          amountRaw: tx.value,
        });
      }
      for (const log of logs) {
        if (log.removed || log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3) continue;
        if (log.blockHash?.toLowerCase() !== blockHash.toLowerCase())
          throw new Error('logs belong to another block (reorg in progress)');
        const token = tokens.get(log.address.toLowerCase());
        const from = topicAddress(log.topics[1]);
        const to = topicAddress(log.topics[2]);
        if (!token || !from || !to || !(interest(from) || interest(to))) continue;
        if (!/^0x[0-9a-fA-F]{1,64}$/.test(log.data)) continue;
        transfers.push({
          txHash: (log.transactionHash as Hex).toLowerCase(),
          txIndex: log.transactionIndex ?? 0,
          logIndex: log.logIndex ?? 0,
          from,
          to,
          asset: token.symbol,
          tokenAddress: token.address,
          decimals: await tokenDecimals(token),
          amountRaw: BigInt(log.data),
        });
      }
      transfers.sort((a, b) => a.txIndex - b.txIndex || a.logIndex - b.logIndex);
      return {
        number: Number(block.number),
        hash: blockHash.toLowerCase(),
        parentHash: block.parentHash.toLowerCase(),
        timestampMs: Number(block.timestamp) * 1000,
        transfers,
      };
    },
  };
}
