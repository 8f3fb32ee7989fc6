/** The on-chain module's public face: other modules and the composition root import only from here. */
export {
  type AddressBook,
  createAddressBook,
  type Label,
  type LabelProblem,
  type LabelSet,
  loadAddressBook,
  parseLabelsCsv,
  parseLabelsJson,
} from './address-book.ts';
export {
  classifyTransfer,
  type Flow,
  type FlowDirection,
  FLOW_DIRECTIONS,
  flowId,
  type LabelLookup,
} from './classify.ts';
export { type FlowView, presentFlow } from './present.ts';
export { createIndexer, type Indexer, type IndexerOptions, type IndexerStatus } from './indexer.ts';
export { createKyselyOnchainRepository } from './repository.kysely.ts';
export type {
  AddressInterest,
  ChainBlock,
  ChainSource,
  OnchainLogger,
  PriceSource,
  RawTransfer,
} from './ports.ts';
export {
  type ChainCoverage,
  createMemoryOnchainRepository,
  type NetflowBucket,
  type OnchainRepository,
} from './repository.ts';
export {
  type ChainInfo,
  createOnchainService,
  type FlowsPage,
  type ListFlowsInput,
  MAX_LIMIT,
  type NetflowPage,
  type OnchainService,
} from './service.ts';
export type { OnchainTables } from './tables.ts';
export { MAX_NETFLOW_BUCKETS, NETFLOW_INTERVALS, type NetflowPoint, subtractDecimal } from './netflow.ts';
export { type FlowsRemoved, type OnchainTopics, onchainTopicDecoders } from './topics.ts';
export { formatVerifyReport, type VerifyReport, verifyFlows } from './verify.ts';
