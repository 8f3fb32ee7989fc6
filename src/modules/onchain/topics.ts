import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';
import { FLOW_DIRECTIONS } from './classify.ts';
import type { FlowView } from './present.ts';

/** `onchain.flows-removed`: the ids (the API's flow ids) of flows a reorg orphaned on `chain` above `ancestor`. */
export interface FlowsRemoved {
  chain: string;
  ancestor: number;
  ids: string[];
}

/** The indexer's bus topics: each new flow (the endpoint's shape), and the flows a reorg took back. */
export interface OnchainTopics {
  [topics.onchainFlow]: FlowView;
  [topics.onchainFlowsRemoved]: FlowsRemoved;
}

const isString = (x: unknown): x is string => typeof x === 'string';
const isNumber = (x: unknown): x is number => typeof x === 'number';
const isStringOrNull = (x: unknown) => x === null || isString(x);
const isParty = (x: unknown) =>
  isRecord(x) && isString(x.address) && isStringOrNull(x.exchange) && isStringOrNull(x.label);

function isFlowView(x: unknown): x is FlowView {
  return (
    isRecord(x) &&
    isString(x.id) &&
    isString(x.chain) &&
    isString(x.txHash) &&
    (x.logIndex === null || isNumber(x.logIndex)) &&
    (x.kind === 'native' || x.kind === 'token') &&
    isNumber(x.blockNumber) &&
    isString(x.blockHash) &&
    isString(x.time) &&
    isNumber(x.timestamp) &&
    isString(x.exchange) &&
    FLOW_DIRECTIONS.some((d) => d === x.direction) &&
    isString(x.asset) &&
    isStringOrNull(x.tokenAddress) &&
    isString(x.amount) &&
    (x.usdValue === null || isNumber(x.usdValue)) &&
    isParty(x.from) &&
    isParty(x.to) &&
    (x.labelVersion === undefined || isStringOrNull(x.labelVersion))
  );
}

export const onchainTopicDecoders: TopicDecoders<OnchainTopics> = {
  [topics.onchainFlow]: (raw) => (isFlowView(raw) ? raw : undefined),
  [topics.onchainFlowsRemoved]: (raw) => {
    if (!isRecord(raw) || !isString(raw.chain) || !isNumber(raw.ancestor) || !Array.isArray(raw.ids))
      return undefined;
    return { chain: raw.chain, ancestor: raw.ancestor, ids: raw.ids.filter(isString) };
  },
};
