import type { AppBus } from './bus-topics.ts';
import { createEvmChainSource } from '../adapters/chain/evm/evm-source.ts';
import { createSimulatedChainSource } from '../adapters/chain/simulated/simulated-source.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  type AddressBook,
  type ChainSource,
  createIndexer,
  createKyselyOnchainRepository,
  createOnchainService,
  type Indexer,
  loadAddressBook,
  type OnchainLogger,
  type OnchainService,
  type OnchainTables,
  type PriceSource,
} from '../modules/onchain/index.ts';
import { normalizeExchange } from '../modules/symbols/index.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from './jobs.ts';

export interface OnchainModule {
  service: OnchainService;
  book: AddressBook;
  source: ChainSource;
  indexer: Indexer;
  job: Job;
}

/** No market wired: stablecoins are still priced (1 USD); other assets get a null USD value. */
const noPrices: PriceSource = { usdPrice: () => undefined };

/**
 * Builds the on-chain module: address book (built-in labels + MERIDIAN_LABELS_PATH), the chain source picked
 * by MERIDIAN_CHAIN_SOURCE, the repository, the service behind GET /api/onchain/flows and the indexer job.
 */
export function buildOnchain(
  config: Config,
  deps: {
    db: DbHandle;
    bus: AppBus;
    clock: Clock;
    prices?: PriceSource;
    logger: OnchainLogger;
    /** First block time of the simulated chain (default 2024-01-01; a replay's chain starts with its recording). */
    simulatedGenesisMs?: number;
  },
): OnchainModule {
  const log = deps.logger;
  const prices = deps.prices ?? noPrices;
  const book = loadAddressBook({
    extraPaths: config.labelsPath,
    normalize: (name) => {
      try {
        return normalizeExchange(name).exchange;
      } catch {
        return name.trim().toLowerCase();
      }
    },
  });
  for (const problem of book.problems) log.warn({ ...problem }, 'onchain: label row not used');
  log.info(
    {
      version: book.version,
      addresses: book.size,
      exchanges: book.exchanges(),
      problems: book.problems.length,
    },
    'onchain: address book loaded',
  );

  const source: ChainSource =
    config.chainSource.kind === 'evm'
      ? createEvmChainSource({ rpcUrl: config.chainSource.rpcUrl, tokens: config.chainTokens })
      : createSimulatedChainSource({
          labels: book.labels('ethereum'),
          prices,
          clock: deps.clock,
          genesisMs: deps.simulatedGenesisMs,
        });
  const repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(deps.db.db));
  const service = createOnchainService({
    repo,
    book,
    clock: deps.clock,
    source: config.chainSource.kind === 'evm' ? `evm:${source.chain}` : 'simulated',
    chain: source.chain,
    // The indexer stays `confirmations` blocks (~12 s each) behind the head on purpose.
    staleMs:
      config.chainStaleMs + (config.chainSource.kind === 'evm' ? config.chainConfirmations * 12_000 : 0),
  });
  const indexer = createIndexer({
    source,
    repo,
    book,
    prices,
    bus: deps.bus,
    clock: deps.clock,
    logger: log,
    confirmations: config.chainSource.kind === 'evm' ? config.chainConfirmations : 0,
    pollMs: config.chainPollMs,
    backfillBlocks: config.chainBackfillBlocks,
  });
  return {
    service,
    book,
    source,
    indexer,
    job: {
      name: 'onchain-indexer',
      start: async (term) => indexer.start(term),
      stop: async () => {
        await indexer.stop();
        await source.close?.();
      },
    },
  };
}
