import { type Bus, topics } from '../../shared/bus.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { type Clock, systemClock } from '../../shared/clock.ts';
import { exponentialBackoff } from '../../shared/backoff.ts';
import { createSleeper } from '../../shared/sleeper.ts';
import { createCachedPrices, classifyTransfer, type Flow, type LabelLookup } from './classify.ts';
import { presentFlow } from './present.ts';
import {
  type ChainBlock,
  type ChainSource,
  type OnchainLogger,
  type PriceSource,
  silentLogger,
} from './ports.ts';
import type { OnchainRepository } from './repository.ts';
import type { OnchainTopics } from './topics.ts';

/**
 * The chain indexer: follows a ChainSource block by block, `confirmations` behind the head, and stores the
 * flows touching labelled addresses.
 *
 * - Checkpoint: the last indexed block (number + hash) is written in the same transaction as its flows, so a
 *   restart resumes at checkpoint + 1 — no gap; flows carry the idempotent key (chain, tx hash, log index,
 *   exchange) and inserts skip existing keys — no duplicate even if a checkpoint were behind its flows.
 * - Reorgs: a block whose parent hash differs from the recorded hash of the previous height, or a recorded
 *   checkpoint hash that is no longer canonical, starts a walk back over the retained block hashes to the
 *   highest height where recorded and canonical agree; everything above it is deleted and re-indexed from the
 *   new chain.
 * - RPC errors: exponential backoff with jitter (min → max), reset after a successful step.
 */
export interface IndexerOptions {
  source: ChainSource;
  repo: OnchainRepository;
  /** The labels that classify this chain's transfers; their version is stored with each flow. */
  book: LabelLookup;
  prices: PriceSource;
  bus?: Bus<OnchainTopics>;
  clock?: Clock;
  logger?: OnchainLogger;
  /** Blocks to stay behind the head (0 = index the head itself). */
  confirmations?: number;
  /** Wait between polls when caught up. */
  pollMs?: number;
  /** Most blocks fetched and committed in one step. */
  batchSize?: number;
  /** Blocks fetched in parallel inside a batch. */
  fetchConcurrency?: number;
  /** First block when there is no checkpoint; default: the newest confirmed block minus `backfillBlocks`. */
  startBlock?: number;
  backfillBlocks?: number;
  /** Block hashes kept for reorg detection. */
  retainBlocks?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
}

export interface IndexerStatus {
  chain: string;
  running: boolean;
  head: number | null;
  checkpoint: number | null;
  /** Block time of the checkpoint (the chain's clock), once this process has indexed a block. */
  checkpointTime: number | null;
  blocksIndexed: number;
  flowsIndexed: number;
  reorgs: number;
  flowsRemovedByReorgs: number;
  consecutiveErrors: number;
  lastError: string | null;
}

export type StepResult =
  | { kind: 'idle'; head: number }
  | { kind: 'indexed'; from: number; to: number; flows: number }
  | { kind: 'reorg'; ancestor: number; removedFlows: number };

export interface Indexer {
  /** Starts the loop; its writes carry `term` (the indexer job's leadership term) and are fenced by it. */
  start(term?: LeaderTerm): void;
  stop(): Promise<void>;
  /** One unit of work; exposed for tests and the benchmark. */
  step(): Promise<StepResult>;
  status(): IndexerStatus;
}

export function createIndexer(options: IndexerOptions): Indexer {
  const { source, repo, book, prices, bus } = options;
  const chain = source.chain;
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? silentLogger;
  const confirmations = options.confirmations ?? 0;
  const pollMs = options.pollMs ?? 1000;
  const batchSize = Math.max(1, options.batchSize ?? 25);
  const concurrency = Math.max(1, options.fetchConcurrency ?? 5);
  const retain = Math.max(confirmations + 2, options.retainBlocks ?? 256);
  const backoffMin = options.backoffMinMs ?? 250;
  const backoffMax = options.backoffMaxMs ?? 30_000;
  const interest = (address: string) => book.lookup(chain, address) !== undefined;
  const priceOf = createCachedPrices(prices, log);

  const status: IndexerStatus = {
    chain,
    running: false,
    head: null,
    checkpoint: null,
    checkpointTime: null,
    blocksIndexed: 0,
    flowsIndexed: 0,
    reorgs: 0,
    flowsRemovedByReorgs: 0,
    consecutiveErrors: 0,
    lastError: null,
  };

  let loop: Promise<void> | undefined;
  const { sleep, wakeAll } = createSleeper();

  async function fetchRange(from: number, to: number): Promise<ChainBlock[]> {
    const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const out: Array<ChainBlock | undefined> = [];
    for (let i = 0; i < numbers.length; i += concurrency) {
      const part = await Promise.all(numbers.slice(i, i + concurrency).map((n) => source.block(n, interest)));
      out.push(...part);
    }
    // Keep the contiguous prefix that links by parent hash; the rest is fetched again next step.
    const linked: ChainBlock[] = [];
    for (const block of out) {
      if (!block) break;
      const prev = linked.at(-1);
      if (prev && block.parentHash !== prev.hash) break;
      linked.push(block);
    }
    return linked;
  }

  async function handleReorg(fromHeight: number, head: number): Promise<StepResult> {
    const low = (await repo.lowestBlock(chain)) ?? fromHeight;
    let ancestor: number | undefined;
    for (let n = Math.min(fromHeight, head); n >= low; n--) {
      const [recorded, canonical] = await Promise.all([repo.blockHash(chain, n), source.blockHash(n)]);
      if (recorded !== undefined && recorded === canonical) {
        ancestor = n;
        break;
      }
    }
    if (ancestor === undefined) {
      ancestor = low - 1;
      log.error(
        { chain, low, fromHeight },
        'onchain: reorg deeper than the retained block window; rewinding past it',
      );
    }
    const { removedFlows, removedIds } = await repo.rewind(chain, ancestor, clock.now(), term);
    if (bus && removedIds.length) {
      // Consumers of onchain.flow (alerts) retract what they acted on; the ids are the API's flow ids.
      await bus
        .publish(topics.onchainFlowsRemoved, { chain, ancestor, ids: removedIds })
        .catch((error: unknown) => {
          log.warn({ chain, error: String(error) }, 'onchain: publishing removed flows failed');
        });
    }
    status.reorgs++;
    status.flowsRemovedByReorgs += removedFlows;
    status.checkpoint = ancestor;
    log.warn(
      { chain, ancestor, orphanedFrom: ancestor + 1, removedFlows },
      'onchain: reorg, orphaned flows removed',
    );
    return { kind: 'reorg', ancestor, removedFlows };
  }

  async function step(): Promise<StepResult> {
    const head = await source.headNumber();
    status.head = head;
    const target = head - confirmations;
    const cp = await repo.checkpoint(chain);
    status.checkpoint = cp?.blockNumber ?? null;
    let next: number;
    if (cp) {
      next = cp.blockNumber + 1;
      if (next > target) {
        // Caught up: make sure what we stand on is still canonical (a reorg may keep or shorten the height).
        if (
          cp.blockHash &&
          (head < cp.blockNumber || (await source.blockHash(cp.blockNumber)) !== cp.blockHash)
        ) {
          return handleReorg(cp.blockNumber, head);
        }
        return { kind: 'idle', head };
      }
    } else {
      next = options.startBlock ?? Math.max(0, target - (options.backfillBlocks ?? 0));
      if (next > target) return { kind: 'idle', head };
    }
    const to = Math.min(target, next + batchSize - 1);
    const blocks = await fetchRange(next, to);
    const first = blocks[0];
    if (!first) return { kind: 'idle', head };
    if (cp?.blockHash && first.parentHash !== cp.blockHash) return handleReorg(cp.blockNumber, head);

    const flows: Flow[] = [];
    for (const block of blocks) {
      for (const transfer of block.transfers) {
        if (!interest(transfer.from) && !interest(transfer.to)) continue;
        const price = await priceOf(transfer.asset, block.timestampMs);
        flows.push(...classifyTransfer(transfer, block, chain, book, price));
      }
    }
    const inserted = await repo.commit(
      chain,
      blocks.map((b) => ({
        number: b.number,
        hash: b.hash,
        parentHash: b.parentHash,
        timestampMs: b.timestampMs,
      })),
      flows,
      clock.now(),
      term,
    );
    const last = blocks.at(-1) as ChainBlock;
    status.checkpoint = last.number;
    status.checkpointTime = last.timestampMs;
    status.blocksIndexed += blocks.length;
    status.flowsIndexed += inserted.length;
    if (last.number % 64 === 0 || blocks.length > 1)
      await repo.pruneBlocks(chain, last.number - retain, term);
    if (bus) {
      for (const flow of inserted) {
        await bus.publish(topics.onchainFlow, presentFlow(flow)).catch((error: unknown) => {
          log.warn({ chain, error: String(error) }, 'onchain: publishing a flow failed');
        });
      }
    }
    return { kind: 'indexed', from: first.number, to: last.number, flows: inserted.length };
  }

  let term: LeaderTerm | undefined;

  async function run(): Promise<void> {
    const backoff = exponentialBackoff({ initialMs: backoffMin, maxMs: backoffMax });
    while (status.running) {
      try {
        const result = await step();
        status.consecutiveErrors = 0;
        backoff.reset();
        if (result.kind === 'idle' && status.running) await sleep(pollMs);
      } catch (error) {
        status.consecutiveErrors++;
        status.lastError = error instanceof Error ? error.message : String(error);
        const wait = backoff.next();
        log.warn(
          { chain, source: source.description, error: status.lastError, retryInMs: Math.round(wait) },
          'onchain: indexer step failed; backing off',
        );
        if (status.running) await sleep(wait);
      }
    }
  }

  return {
    start(leaderTerm) {
      if (status.running) return;
      term = leaderTerm;
      status.running = true;
      loop = run();
    },
    async stop() {
      status.running = false;
      wakeAll();
      await loop;
      loop = undefined;
    },
    step,
    status: () => ({ ...status }),
  };
}
