import type { AppBus } from './bus-topics.ts';
import { createHash } from 'node:crypto';
import { createSimulatedChainSource, simulatedLabels } from '../adapters/chain/simulated/simulated-source.ts';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { ChainSpec } from '../config/chains.ts';
import type { Config } from '../config/env.ts';
import {
  type AddressBook,
  type ChainSource,
  createIndexer,
  createKyselyOnchainRepository,
  createOnchainService,
  type Indexer,
  type Label,
  type LabelLookup,
  loadAddressBook,
  type OnchainLogger,
  type OnchainRepository,
  type OnchainService,
  type OnchainTables,
  type PriceSource,
} from '../modules/onchain/index.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from './jobs.ts';

/** One indexed chain: its configuration, source, the labels that classify it and its indexer. */
export interface IndexedChain {
  spec: ChainSpec;
  source: ChainSource;
  labels: LabelLookup;
  indexer: Indexer;
  /** This chain's indexer as a job (`onchain-indexer:<name>`; the one chain of a single-chain setup: `onchain-indexer`). */
  job: Job;
}

export interface OnchainModule {
  service: OnchainService;
  book: AddressBook;
  repo: OnchainRepository;
  chains: IndexedChain[];
  /** The first chain's source and indexer (the only ones of a single-chain setup). */
  source: ChainSource;
  indexer: Indexer;
  /** Every chain's indexer at once, without leadership (tests, one-process tools). */
  job: Job;
}

/** No market wired: stablecoins are still priced (1 USD); other assets get a null USD value. */
const noPrices: PriceSource = { usdPrice: () => undefined };

/** The simulated chains of the default (simulated) setup: clearly labelled simulated in every answer. */
const SIMULATED_CHAINS: ChainSpec[] = [
  { name: 'ethereum', rpcUrl: 'simulated', confirmations: 0, nativeAsset: 'ETH' },
  { name: 'arbitrum', rpcUrl: 'simulated', confirmations: 0, nativeAsset: 'ETH' },
  { name: 'bsc', rpcUrl: 'simulated', confirmations: 0, nativeAsset: 'BNB' },
];

/**
 * The chain list: MERIDIAN_CHAINS when set; else the single-chain settings — one `ethereum` chain over
 * MERIDIAN_CHAIN_SOURCE=evm:<url> with MERIDIAN_CHAIN_CONFIRMATIONS and MERIDIAN_CHAIN_TOKENS, or, with the
 * simulated source, three simulated chains.
 */
export function resolveChains(config: Config): ChainSpec[] {
  if (config.chains) return config.chains;
  if (config.chainSource.kind === 'evm')
    return [
      {
        name: 'ethereum',
        rpcUrl: config.chainSource.rpcUrl,
        confirmations: config.chainConfirmations,
        nativeAsset: 'ETH',
        ...(config.chainTokens ? { tokens: config.chainTokens } : {}),
      },
    ];
  return SIMULATED_CHAINS;
}

const SIMULATED_EXCHANGES = ['binance', 'coinbase', 'kraken', 'okx'];

/**
 * The labels a chain's flows are classified with: the address book, plus, for a simulated chain no label file
 * covers, generated wallets (tagged simulated) so that it has flows at all. The version covers both.
 */
export function chainLabels(book: AddressBook, spec: ChainSpec): { lookup: LabelLookup; labels: Label[] } {
  const own = book.labels(spec.name);
  if (spec.rpcUrl !== 'simulated' || own.length) return { lookup: book, labels: own };
  const generated = simulatedLabels(spec.name, SIMULATED_EXCHANGES);
  const byAddress = new Map(generated.map((l) => [l.address, l]));
  const version = createHash('sha256')
    .update(`${book.version}+simulated:${spec.name}`)
    .digest('hex')
    .slice(0, 16);
  return {
    labels: generated,
    lookup: {
      version,
      lookup: (chain, address) =>
        (chain === spec.name ? byAddress.get(address.toLowerCase()) : undefined) ??
        book.lookup(chain, address),
    },
  };
}

/**
 * The source of one chain: its EVM node, or the deterministic simulation. viem (over a second of CPU to import)
 * loads only when a chain has a real node, as ccxt does for the market.
 */
export async function chainSource(
  spec: ChainSpec,
  labels: Label[],
  deps: { prices: PriceSource; clock: Clock; simulatedGenesisMs?: number },
): Promise<ChainSource> {
  if (spec.rpcUrl !== 'simulated') {
    const { createEvmChainSource } = await import('../adapters/chain/evm/evm-source.ts');
    return createEvmChainSource({
      rpcUrl: spec.rpcUrl,
      chain: spec.name,
      chainId: spec.chainId,
      nativeAsset: spec.nativeAsset,
      tokens: spec.tokens,
    });
  }
  return createSimulatedChainSource({
    chain: spec.name,
    nativeAsset: spec.nativeAsset,
    labels,
    prices: deps.prices,
    clock: deps.clock,
    genesisMs: deps.simulatedGenesisMs,
  });
}

/**
 * Builds the on-chain module: address book (built-in labels + MERIDIAN_LABELS_PATH), one source and indexer per
 * configured chain, the repository and the service behind /api/onchain/*.
 */
export async function buildOnchain(
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
): Promise<OnchainModule> {
  const log = deps.logger;
  const prices = deps.prices ?? noPrices;
  const book = loadAddressBook({ extraPaths: config.labelsPath });
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

  const specs = resolveChains(config);
  const repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(deps.db.db));
  const chains: IndexedChain[] = await Promise.all(
    specs.map(async (spec) => {
      const labels = chainLabels(book, spec);
      const source = await chainSource(spec, labels.labels, { ...deps, prices });
      const indexer = createIndexer({
        source,
        repo,
        book: labels.lookup,
        prices,
        bus: deps.bus,
        clock: deps.clock,
        logger: log,
        confirmations: spec.confirmations,
        pollMs: config.chainPollMs,
        backfillBlocks: config.chainBackfillBlocks,
      });
      return {
        spec,
        source,
        labels: labels.lookup,
        indexer,
        job: {
          name: specs.length === 1 ? 'onchain-indexer' : `onchain-indexer:${spec.name}`,
          start: async (term) => indexer.start(term),
          stop: async () => {
            await indexer.stop();
            await source.close?.();
          },
        },
      };
    }),
  );
  log.info(
    { chains: chains.map((c) => ({ name: c.spec.name, source: c.source.description })) },
    chains.every((c) => c.spec.rpcUrl === 'simulated')
      ? 'onchain: indexing simulated chains (not real data)'
      : 'onchain: indexing chains',
  );
  const service = createOnchainService({
    repo,
    book,
    clock: deps.clock,
    chains: specs.map((spec) => ({
      name: spec.name,
      source: spec.rpcUrl === 'simulated' ? 'simulated' : `evm:${spec.name}`,
      // The indexer stays `confirmations` blocks (~12 s each) behind the head on purpose.
      staleMs: config.chainStaleMs + spec.confirmations * 12_000,
    })),
  });
  const first = chains[0] as IndexedChain;
  return {
    service,
    book,
    repo,
    chains,
    source: first.source,
    indexer: first.indexer,
    job: {
      name: 'onchain-indexers',
      start: async (term) => {
        for (const c of chains) await c.job.start(term);
      },
      stop: async () => {
        for (const c of chains) await c.job.stop();
      },
    },
  };
}
