import type { LeaderTerm } from '../../shared/leadership.ts';
import type { Flow, FlowDirection } from './classify.ts';

/** Position of a flow in newest-first order; the cursor carries the last one a page returned. */
export interface FlowPosition {
  blockNumber: number;
  txIndex: number;
  logIndex: number;
  exchange: string;
}

export interface FlowQuery {
  exchange?: string;
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
 * The on-chain repository port; `repository.kysely.ts` implements it on PGlite and PostgreSQL. The writes
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
  totals(query: { exchange?: string; asset?: string; sinceMs: number }): Promise<FlowTotals>;
}
