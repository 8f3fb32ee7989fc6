import { cursorProblem, encodeCursor, readCursor } from '../../shared/cursor.ts';
import { validationError } from '../../shared/errors.ts';
import { type Clock, systemClock } from '../../shared/clock.ts';
import { knownExchangeNames, normalizeExchange } from '../identifiers/index.ts';
import type { AddressBook } from './address-book.ts';
import { FLOW_DIRECTIONS, type FlowDirection } from './classify.ts';
import { type FlowView, presentFlow } from './present.ts';
import type { FlowPosition, OnchainRepository } from './repository.ts';

const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export interface ListFlowsInput {
  exchange?: string;
  limit?: number;
  asset?: string;
  direction?: string;
  minUsd?: number;
  cursor?: string;
}

export interface WindowTotals {
  inflowUsd: number;
  outflowUsd: number;
  netflowUsd: number;
}

export interface FlowsPage {
  data: FlowView[];
  summary: {
    asOf: string;
    exchange: string | null;
    asset: string | null;
    '1h': WindowTotals;
    '24h': WindowTotals;
  };
  /** Pass as `cursor` for the next (older) page; null when this page is the last. */
  nextCursor: string | null;
  /** Applied values of parameters that were clamped or normalized. */
  applied: { limit: number; exchange: string | null; asset: string | null; direction: FlowDirection | null };
  labels: { version: string; addresses: number };
}

export interface OnchainService {
  listFlows(input: ListFlowsInput): Promise<FlowsPage>;
  /**
   * Where flows come from and how current they are: the source, the time of the newest indexed block (the
   * chain's own clock) and whether that is older than the staleness window now.
   */
  provenance(): Promise<{ source: string; asOf: number | null; stale: boolean; block: number | null }>;
  /** Canonical exchange name for a user-given one, or an `unknown_exchange` error listing the known ones. */
  resolveExchange(input: string): string;
  knownExchanges(): string[];
  readonly book: AddressBook;
}

/** A flow's position in a page cursor: [block, tx index, log index, exchange]. */
function flowPosition(value: unknown): FlowPosition | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const [blockNumber, txIndex, logIndex, exchange] = value as unknown[];
  if (
    !Number.isSafeInteger(blockNumber) ||
    !Number.isSafeInteger(txIndex) ||
    !Number.isSafeInteger(logIndex) ||
    typeof exchange !== 'string'
  )
    return undefined;
  return {
    blockNumber: blockNumber as number,
    txIndex: txIndex as number,
    logIndex: logIndex as number,
    exchange,
  };
}

const HOUR = 3_600_000;
const cents = (n: number) => Math.round(n * 100) / 100;

export function createOnchainService(deps: {
  repo: OnchainRepository;
  book: AddressBook;
  clock?: Clock;
  /** What answers name as the source: `simulated` or `evm:<chain>`. */
  source?: string;
  chain?: string;
  /** The newest indexed block older than this (ms) makes flows stale. */
  staleMs?: number;
}): OnchainService {
  const { repo, book } = deps;
  const clock = deps.clock ?? systemClock;

  const knownExchanges = () => knownExchangeNames(book.exchanges());

  /** A known exchange, or one the operator labelled (by its plain name); otherwise `unknown_exchange` (400). */
  function resolveExchange(input: string): string {
    return normalizeExchange(input, { strict: true, extra: book.exchanges() }).value;
  }

  async function window(hours: number, exchange?: string, asset?: string): Promise<WindowTotals> {
    const t = await repo.totals({ exchange, asset, sinceMs: clock.now() - hours * HOUR });
    return {
      inflowUsd: t.inflowUsd,
      outflowUsd: t.outflowUsd,
      netflowUsd: cents(t.inflowUsd - t.outflowUsd),
    };
  }

  async function listFlows(input: ListFlowsInput): Promise<FlowsPage> {
    const problems: Array<{ pointer: string; message: string }> = [];
    let limit = DEFAULT_LIMIT;
    if (input.limit !== undefined) {
      if (!Number.isInteger(input.limit) || input.limit < 1)
        problems.push({ pointer: '/query/limit', message: 'must be an integer of at least 1' });
      else limit = Math.min(MAX_LIMIT, input.limit);
    }
    let direction: FlowDirection | undefined;
    if (input.direction !== undefined && input.direction !== '') {
      const d = input.direction.trim().toLowerCase();
      if ((FLOW_DIRECTIONS as readonly string[]).includes(d)) direction = d as FlowDirection;
      else
        problems.push({
          pointer: '/query/direction',
          message: `must be one of ${FLOW_DIRECTIONS.join(', ')}`,
        });
    }
    let asset: string | undefined;
    if (input.asset !== undefined && input.asset !== '') {
      asset = input.asset.trim().toUpperCase();
      if (!/^[A-Z0-9.]{1,20}$/.test(asset))
        problems.push({ pointer: '/query/asset', message: 'must be an asset symbol such as ETH or USDT' });
    }
    if (input.minUsd !== undefined && (!Number.isFinite(input.minUsd) || input.minUsd < 0)) {
      problems.push({ pointer: '/query/minUsd', message: 'must be a number of at least 0' });
    }
    let before: FlowPosition | undefined;
    if (input.cursor !== undefined && input.cursor !== '') {
      before = readCursor(input.cursor, flowPosition);
      if (!before) problems.push(cursorProblem);
    }
    if (problems.length) throw validationError(problems);
    const exchange =
      input.exchange !== undefined && input.exchange !== '' ? resolveExchange(input.exchange) : undefined;

    const rows = await repo.list({ exchange, asset, direction, minUsd: input.minUsd, limit, before });
    const [h1, h24] = await Promise.all([window(1, exchange, asset), window(24, exchange, asset)]);
    const last = rows.at(-1);
    return {
      data: rows.map(presentFlow),
      summary: {
        asOf: new Date(clock.now()).toISOString(),
        exchange: exchange ?? null,
        asset: asset ?? null,
        '1h': h1,
        '24h': h24,
      },
      nextCursor:
        last && rows.length === limit
          ? encodeCursor([last.blockNumber, last.txIndex, last.logIndex, last.exchange])
          : null,
      applied: { limit, exchange: exchange ?? null, asset: asset ?? null, direction: direction ?? null },
      labels: { version: book.version, addresses: book.size },
    };
  }

  async function provenance() {
    const head = await repo.indexedThrough(deps.chain ?? 'ethereum');
    const asOf = head?.blockTime ?? null;
    return {
      source: deps.source ?? 'simulated',
      asOf,
      block: head?.blockNumber ?? null,
      stale: asOf === null || clock.now() - asOf > (deps.staleMs ?? 180_000),
    };
  }

  return { listFlows, provenance, resolveExchange, knownExchanges, book };
}
