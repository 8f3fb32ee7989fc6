import { type Flow, flowId } from './classify.ts';

/** The public shape of a flow, in the endpoint and on the bus (`onchain.flow`). */
export interface FlowView {
  id: string;
  chain: string;
  txHash: string;
  /** ERC-20 Transfer log index in the block; null for a native transfer. */
  logIndex: number | null;
  kind: 'native' | 'token';
  blockNumber: number;
  blockHash: string;
  /** Block time, ISO 8601 UTC, and the same in epoch milliseconds. */
  time: string;
  timestamp: number;
  exchange: string;
  direction: Flow['direction'];
  asset: string;
  tokenAddress: string | null;
  /** Exact decimal string. */
  amount: string;
  /** USD value at the block time, rounded to cents; null when no price was known. */
  usdValue: number | null;
  from: { address: string; exchange: string | null; label: string | null };
  to: { address: string; exchange: string | null; label: string | null };
  /** Version hash of the label set that classified the flow (`labels.version` of the answer that had it). */
  labelVersion: string | null;
}

export function presentFlow(flow: Flow): FlowView {
  return {
    id: flowId(flow),
    chain: flow.chain,
    txHash: flow.txHash,
    logIndex: flow.logIndex < 0 ? null : flow.logIndex,
    kind: flow.tokenAddress ? 'token' : 'native',
    blockNumber: flow.blockNumber,
    blockHash: flow.blockHash,
    time: new Date(flow.timeMs).toISOString(),
    timestamp: flow.timeMs,
    exchange: flow.exchange,
    direction: flow.direction,
    asset: flow.asset,
    tokenAddress: flow.tokenAddress,
    amount: flow.amount,
    usdValue: flow.usdValue,
    from: { address: flow.from.address, exchange: flow.from.exchange, label: flow.from.tag },
    to: { address: flow.to.address, exchange: flow.to.exchange, label: flow.to.tag },
    labelVersion: flow.labelVersion,
  };
}
