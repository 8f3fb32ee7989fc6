import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import { type Flow, type FlowDirection, flowId } from './classify.ts';
import { formatUnits } from 'viem/utils';

/** Position of a flow in newest-first order; the cursor carries the last one a page returned. */
export interface FlowPosition {
  blockNumber: number;
  txIndex: number;
  logIndex: number;
  exchange: string;
}

export interface FlowQuery {
  exchange?: string;
  chain?: string;
  asset?: string;
  direction?: FlowDirection;
  minUsd?: number;
  limit: number;
  /** Return only flows strictly older than this position. */
  before?: FlowPosition;
}

export interface FlowTotals {
  inflowUsd: number;
  outflowUsd: number;
}

/** One bucket of a netflow series: deposits (in) and withdrawals (out); internal moves are left out. */
export interface NetflowBucket {
  /** Bucket start, epoch ms (a multiple of the interval). */
  startMs: number;
  /** Exact decimal sums in asset units. */
  inflow: string;
  outflow: string;
  inflowUsd: number;
  outflowUsd: number;
  flows: number;
  /** Flows without a USD value (no price known at their block time): left out of the USD sums. */
  unpriced: number;
}

export interface NetflowQuery {
  exchange?: string;
  asset?: string;
  chain?: string;
  intervalMs: number;
  fromMs: number;
  toMs: number;
}

/** The span a chain's stored flows cover: from its first indexed block to its checkpoint (block times). */
export interface ChainCoverage {
  chain: string;
  firstBlockTime: number | null;
  throughBlockTime: number | null;
}

export interface Checkpoint {
  blockNumber: number;
  /** Empty when unknown (after a reorg deeper than the retained block window). */
  blockHash: string;
}

export interface IndexedBlock {
  number: number;
  hash: string;
  parentHash: string;
  timestampMs: number;
}

/**
 * The on-chain repository port; `repository.kysely.ts` implements it on PGlite and PostgreSQL,
 * `createMemoryOnchainRepository` is its twin (both run through test/onchain/repository.test.ts). The writes
 * (commit, rewind, pruneBlocks) take the indexer's leadership term: with one, the write's transaction is
 * fenced by it (StaleLeaderError, nothing written, once the term is no longer current).
 */
export interface OnchainRepository {
  checkpoint(chain: string): Promise<Checkpoint | undefined>;
  /** The newest indexed block (the checkpoint) with its time, when it is still retained. */
  indexedThrough(chain: string): Promise<{ blockNumber: number; blockTime: number } | undefined>;
  /** Hash recorded for an indexed block, if it is still in the retained window. */
  blockHash(chain: string, number: number): Promise<string | undefined>;
  /** Lowest block number still retained for reorg checks. */
  lowestBlock(chain: string): Promise<number | undefined>;
  /**
   * Atomically records blocks, their flows and the new checkpoint (the last block). Flows already present
   * (same chain, tx hash, log index, exchange) are left alone; returns only the flows newly inserted.
   */
  commit(
    chain: string,
    blocks: IndexedBlock[],
    flows: Flow[],
    atMs: number,
    term?: LeaderTerm,
  ): Promise<Flow[]>;
  /** Removes every flow and block above `ancestor` and moves the checkpoint back to it. */
  rewind(
    chain: string,
    ancestor: number,
    atMs: number,
    term?: LeaderTerm,
  ): Promise<{ removedFlows: number; removedIds: string[] }>;
  /** Forgets retained block hashes below `number` (flows are kept). */
  pruneBlocks(chain: string, belowNumber: number, term?: LeaderTerm): Promise<void>;
  list(query: FlowQuery): Promise<Flow[]>;
  totals(query: { exchange?: string; asset?: string; chain?: string; sinceMs: number }): Promise<FlowTotals>;
  /** Every stored flow of a chain in a block range (inclusive), in chain order: what `verify` compares. */
  flowsInBlocks(chain: string, fromBlock: number, toBlock: number): Promise<Flow[]>;
  /** Non-empty buckets of deposits and withdrawals in [fromMs, toMs), oldest first. */
  netflow(query: NetflowQuery): Promise<NetflowBucket[]>;
  /** What each indexed chain's stored flows cover. */
  coverage(): Promise<ChainCoverage[]>;
}

/** Exact sum of decimal amounts, each given as raw integer units and decimals. */
export function sumUnits(parts: Array<{ amountRaw: string; decimals: number }>): string {
  const scale = Math.max(0, ...parts.map((p) => p.decimals));
  let total = 0n;
  for (const p of parts) total += BigInt(p.amountRaw) * 10n ** BigInt(scale - p.decimals);
  return formatUnits(total, scale);
}

/** A refused value shaped like PostgreSQL's (SQLSTATE in `code`). */
const invalidValue = (code: '22P02' | '22003', message: string) =>
  Object.assign(new Error(message), { code });

const NUMERIC_LITERAL = /^\s*(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|[+-]?inf(?:inity)?)\s*$/i;
const INT4 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

function assertNumeric(value: string): void {
  if (!NUMERIC_LITERAL.test(value))
    throw invalidValue('22P02', `invalid input syntax for type numeric: "${value}"`);
}

function assertInteger(value: number, type: 'integer' | 'bigint'): void {
  if (!Number.isInteger(value))
    throw invalidValue('22P02', `invalid input syntax for type ${type}: "${value}"`);
  const fits = type === 'integer' ? value >= INT4.min && value <= INT4.max : Number.isSafeInteger(value);
  if (!fits) throw invalidValue('22003', `value "${value}" is out of range for type ${type}`);
}

/** What the flows table's columns refuse, checked before anything is written so that a commit stays atomic. */
function assertStorable(flow: Flow): void {
  assertNumeric(flow.amount);
  assertNumeric(flow.amountRaw);
  for (const n of [flow.txIndex, flow.logIndex, flow.decimals]) assertInteger(n, 'integer');
  for (const n of [flow.blockNumber, flow.timeMs]) assertInteger(n, 'bigint');
}

/** A flow as the table gives it back: the amount re-derived from the raw integer, which reads back normalized. */
function readBack(flow: Flow): Flow {
  const raw = BigInt(flow.amountRaw);
  return { ...structuredClone(flow), amount: formatUnits(raw, flow.decimals), amountRaw: raw.toString() };
}

const flowKey = (f: Pick<Flow, 'chain' | 'txHash' | 'logIndex' | 'exchange'>) =>
  JSON.stringify([f.chain, f.txHash, f.logIndex, f.exchange]);

/** Orders by (blockNumber, txIndex, logIndex, exchange); the ascending sense of the table's row comparison. */
function comparePositions(a: FlowPosition, b: FlowPosition): number {
  return (
    a.blockNumber - b.blockNumber ||
    a.txIndex - b.txIndex ||
    a.logIndex - b.logIndex ||
    (a.exchange < b.exchange ? -1 : a.exchange > b.exchange ? 1 : 0)
  );
}

function matches(flow: Flow, query: FlowQuery): boolean {
  if (query.exchange && flow.exchange !== query.exchange) return false;
  if (query.chain && flow.chain !== query.chain) return false;
  if (query.asset && flow.asset !== query.asset) return false;
  if (query.direction && flow.direction !== query.direction) return false;
  if (query.minUsd !== undefined && (flow.usdValue === null || flow.usdValue < query.minUsd)) return false;
  return !query.before || comparePositions(flow, query.before) < 0;
}

const cents = (usd: number) => Math.round(usd * 100) / 100;

/** In-memory twin of the on-chain store, with the same atomicity, dedupe, order and fencing of a lost term. */
export function createMemoryOnchainRepository(): OnchainRepository {
  const flows = new Map<string, Flow>();
  /** Retained blocks per chain, by number. */
  const blocksOf = new Map<string, Map<number, IndexedBlock>>();
  const checkpoints = new Map<string, Checkpoint>();
  const spans = new Map<string, { first: number; through: number | null }>();

  const retained = (chain: string): ReadonlyMap<number, IndexedBlock> => blocksOf.get(chain) ?? new Map();
  const retainedForWrite = (chain: string) => {
    const blocks = blocksOf.get(chain) ?? new Map<number, IndexedBlock>();
    blocksOf.set(chain, blocks);
    return blocks;
  };

  return {
    async checkpoint(chain) {
      const checkpoint = checkpoints.get(chain);
      return checkpoint && { ...checkpoint };
    },

    async indexedThrough(chain) {
      const checkpoint = checkpoints.get(chain);
      const block = checkpoint && retained(chain).get(checkpoint.blockNumber);
      return block && { blockNumber: block.number, blockTime: block.timestampMs };
    },

    async blockHash(chain, number) {
      return retained(chain).get(number)?.hash;
    },

    async lowestBlock(chain) {
      let lowest: number | undefined;
      for (const number of retained(chain).keys())
        if (lowest === undefined || number < lowest) lowest = number;
      return lowest;
    },

    async commit(chain, blocks, newFlows, _atMs, term) {
      const last = blocks.at(-1);
      if (!last) return [];
      refuseLostTerm(term);
      for (const block of blocks)
        for (const n of [block.number, block.timestampMs]) assertInteger(n, 'bigint');
      for (const flow of newFlows) assertStorable(flow);
      const stored = retainedForWrite(chain);
      for (const block of blocks) stored.set(block.number, { ...block });
      const inserted = new Set<string>();
      for (const flow of newFlows) {
        const key = flowKey(flow);
        if (flows.has(key)) continue;
        flows.set(key, structuredClone(flow));
        inserted.add(key);
      }
      checkpoints.set(chain, { blockNumber: last.number, blockHash: last.hash });
      spans.set(chain, {
        first: spans.get(chain)?.first ?? (blocks[0] as IndexedBlock).timestampMs,
        through: last.timestampMs,
      });
      // `delete` is true once per key: a flow given twice in one commit is reported new once, as it is stored.
      return newFlows.filter((f) => inserted.delete(flowKey(f)));
    },

    async rewind(chain, ancestor, _atMs, term) {
      refuseLostTerm(term);
      const removedIds: string[] = [];
      for (const [key, flow] of flows) {
        if (flow.chain !== chain || flow.blockNumber <= ancestor) continue;
        flows.delete(key);
        removedIds.push(flowId(flow));
      }
      const blocks = retainedForWrite(chain);
      for (const number of blocks.keys()) if (number > ancestor) blocks.delete(number);
      checkpoints.set(chain, { blockNumber: ancestor, blockHash: blocks.get(ancestor)?.hash ?? '' });
      const span = spans.get(chain);
      if (span) span.through = blocks.get(ancestor)?.timestampMs ?? null;
      return { removedFlows: removedIds.length, removedIds };
    },

    async pruneBlocks(chain, belowNumber, term) {
      refuseLostTerm(term);
      const blocks = retainedForWrite(chain);
      for (const number of blocks.keys()) if (number < belowNumber) blocks.delete(number);
    },

    async list(query) {
      return [...flows.values()]
        .filter((f) => matches(f, query))
        .sort((a, b) => comparePositions(b, a))
        .slice(0, query.limit)
        .map(readBack);
    },

    async totals(query) {
      let inflow = 0;
      let outflow = 0;
      for (const f of flows.values()) {
        if (f.timeMs < query.sinceMs || f.usdValue === null) continue;
        if ((query.exchange && f.exchange !== query.exchange) || (query.asset && f.asset !== query.asset))
          continue;
        if (query.chain && f.chain !== query.chain) continue;
        if (f.direction === 'deposit') inflow += f.usdValue;
        if (f.direction === 'withdrawal') outflow += f.usdValue;
      }
      return { inflowUsd: cents(inflow), outflowUsd: cents(outflow) };
    },

    async flowsInBlocks(chain, fromBlock, toBlock) {
      return [...flows.values()]
        .filter((f) => f.chain === chain && f.blockNumber >= fromBlock && f.blockNumber <= toBlock)
        .sort(comparePositions)
        .map(readBack);
    },

    async netflow(query) {
      const buckets = new Map<
        number,
        { ins: Flow[]; outs: Flow[]; inUsd: number; outUsd: number; unpriced: number }
      >();
      for (const f of flows.values()) {
        if (f.direction === 'internal' || f.timeMs < query.fromMs || f.timeMs >= query.toMs) continue;
        if (query.exchange && f.exchange !== query.exchange) continue;
        if (query.asset && f.asset !== query.asset) continue;
        if (query.chain && f.chain !== query.chain) continue;
        const start = Math.floor(f.timeMs / query.intervalMs) * query.intervalMs;
        const b = buckets.get(start) ?? { ins: [], outs: [], inUsd: 0, outUsd: 0, unpriced: 0 };
        buckets.set(start, b);
        if (f.direction === 'deposit') b.ins.push(f);
        else b.outs.push(f);
        if (f.usdValue === null) b.unpriced++;
        else if (f.direction === 'deposit') b.inUsd += f.usdValue;
        else b.outUsd += f.usdValue;
      }
      return [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([startMs, b]) => ({
          startMs,
          inflow: sumUnits(b.ins),
          outflow: sumUnits(b.outs),
          inflowUsd: cents(b.inUsd),
          outflowUsd: cents(b.outUsd),
          flows: b.ins.length + b.outs.length,
          unpriced: b.unpriced,
        }));
    },

    async coverage() {
      return [...spans.entries()].map(([chain, span]) => ({
        chain,
        firstBlockTime: span.first,
        throughBlockTime: span.through,
      }));
    },
  };
}
