import { cursorProblem, encodeCursor, readCursor } from '../../shared/cursor.ts';
import { validationError } from '../../shared/errors.ts';
import { type Clock, systemClock } from '../../shared/clock.ts';
import { knownExchangeNames, normalizeExchange } from '../identifiers/index.ts';
import type { AddressBook } from './address-book.ts';
import { FLOW_DIRECTIONS, type FlowDirection } from './classify.ts';
import { type FlowView, presentFlow } from './present.ts';
import type { ChainCoverage, FlowPosition, OnchainRepository } from './repository.ts';
import { type NetflowInterval, type NetflowPoint, netflowSeries, netflowWindow } from './netflow.ts';

export interface NetflowInputAll {
  exchange?: string;
  asset?: string;
  chain?: string;
  interval?: string;
  from?: string;
  to?: string;
}

export interface NetflowPage {
  exchange: string | null;
  asset: string | null;
  chain: string | null;
  interval: NetflowInterval;
  from: string;
  to: string;
  data: NetflowPoint[];
  /** Per chain in scope: the block times its stored flows span (null: nothing indexed yet). */
  coverage: Array<{ chain: string; from: string | null; through: string | null }>;
  labels: { version: string };
}

const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export interface ListFlowsInput {
  exchange?: string;
  chain?: string;
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
    chain: string | null;
    '1h': WindowTotals;
    '24h': WindowTotals;
  };
  /** Pass as `cursor` for the next (older) page; null when this page is the last. */
  nextCursor: string | null;
  /** Applied values of parameters that were clamped or normalized. */
  applied: {
    limit: number;
    exchange: string | null;
    asset: string | null;
    direction: FlowDirection | null;
    chain: string | null;
  };
  labels: { version: string; addresses: number };
}

export interface OnchainService {
  listFlows(input: ListFlowsInput): Promise<FlowsPage>;
  /**
   * Where flows come from and how current they are: the source, the time of the newest indexed block (the
   * chain's own clock) and whether that is older than the staleness window now.
   */
  provenance(
    chain?: string,
  ): Promise<{ source: string; asOf: number | null; stale: boolean; block: number | null }>;
  /** A configured chain's name for a user-given one, or a 400 naming the chains. */
  resolveChain(input: string, pointer?: string): string;
  /** The configured chains, in configuration order. */
  chains(): ChainInfo[];
  netflow(input: NetflowInputAll): Promise<NetflowPage>;
  /** Canonical exchange name for a user-given one, or an `unknown_exchange` error listing the known ones. */
  resolveExchange(input: string): string;
  knownExchanges(): string[];
  readonly book: AddressBook;
}

/** A chain as the service describes it in answers. */
export interface ChainInfo {
  name: string;
  /** `simulated` or `evm:<name>`. */
  source: string;
  /** The newest indexed block older than this (ms) makes the chain's flows stale. */
  staleMs: number;
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
  /** The indexed chains (default: one simulated `ethereum`). */
  chains?: ChainInfo[];
}): OnchainService {
  const { repo, book } = deps;
  const clock = deps.clock ?? systemClock;
  const chains: ChainInfo[] = deps.chains ?? [{ name: 'ethereum', source: 'simulated', staleMs: 180_000 }];

  function resolveChain(input: string, pointer = '/query/chain'): string {
    const name = input.trim().toLowerCase();
    if (chains.some((c) => c.name === name)) return name;
    throw validationError([
      { pointer, message: `unknown chain; indexed chains: ${chains.map((c) => c.name).join(', ')}` },
    ]);
  }

  const knownExchanges = () => knownExchangeNames(book.exchanges());

  /** A known exchange, or one the operator labelled (by its plain name); otherwise `unknown_exchange` (400). */
  function resolveExchange(input: string): string {
    return normalizeExchange(input, { strict: true, extra: book.exchanges() }).value;
  }

  async function window(
    hours: number,
    exchange?: string,
    asset?: string,
    chain?: string,
  ): Promise<WindowTotals> {
    const t = await repo.totals({ exchange, asset, chain, sinceMs: clock.now() - hours * HOUR });
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
    const chain = input.chain !== undefined && input.chain !== '' ? resolveChain(input.chain) : undefined;

    const rows = await repo.list({ exchange, chain, asset, direction, minUsd: input.minUsd, limit, before });
    const [h1, h24] = await Promise.all([
      window(1, exchange, asset, chain),
      window(24, exchange, asset, chain),
    ]);
    const last = rows.at(-1);
    return {
      data: rows.map(presentFlow),
      summary: {
        asOf: new Date(clock.now()).toISOString(),
        exchange: exchange ?? null,
        asset: asset ?? null,
        chain: chain ?? null,
        '1h': h1,
        '24h': h24,
      },
      nextCursor:
        last && rows.length === limit
          ? encodeCursor([last.blockNumber, last.txIndex, last.logIndex, last.exchange])
          : null,
      applied: {
        limit,
        exchange: exchange ?? null,
        asset: asset ?? null,
        direction: direction ?? null,
        chain: chain ?? null,
      },
      labels: { version: book.version, addresses: book.size },
    };
  }

  /**
   * One chain: its source and newest indexed block. Several: the source names each (`simulated`, or
   * `evm:ethereum,simulated:bsc` when mixed), asOf is the oldest of their newest blocks, stale if any is.
   */
  async function provenance(chain?: string) {
    const picked = chain ? chains.filter((c) => c.name === chain) : chains;
    const heads = await Promise.all(
      picked.map(async (c) => ({ c, head: await repo.indexedThrough(c.name) })),
    );
    const now = clock.now();
    const stale = heads.some(({ c, head }) => !head || now - head.blockTime > c.staleMs);
    const times = heads.map(({ head }) => head?.blockTime ?? null);
    const asOf = times.includes(null) ? null : Math.min(...(times as number[]));
    const allSimulated = picked.every((c) => c.source === 'simulated');
    const source =
      allSimulated || picked.length === 1
        ? (picked[0]?.source ?? 'simulated')
        : picked.map((c) => (c.source === 'simulated' ? `simulated:${c.name}` : c.source)).join(',');
    return {
      source,
      asOf,
      block: picked.length === 1 ? (heads[0]?.head?.blockNumber ?? null) : null,
      stale,
    };
  }

  async function netflow(input: NetflowInputAll): Promise<NetflowPage> {
    const window = netflowWindow(input, clock.now());
    let asset: string | undefined;
    if (input.asset !== undefined && input.asset !== '') {
      asset = input.asset.trim().toUpperCase();
      if (!/^[A-Z0-9.]{1,20}$/.test(asset))
        throw validationError([
          { pointer: '/query/asset', message: 'must be an asset symbol such as ETH or USDT' },
        ]);
    }
    const exchange =
      input.exchange !== undefined && input.exchange !== '' ? resolveExchange(input.exchange) : undefined;
    const chain = input.chain !== undefined && input.chain !== '' ? resolveChain(input.chain) : undefined;
    const names = chains.map((c) => c.name);
    const data = await netflowSeries(repo, { exchange, asset, chain, chains: names }, window);
    const coverage: ChainCoverage[] = await repo.coverage();
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      exchange: exchange ?? null,
      asset: asset ?? null,
      chain: chain ?? null,
      interval: window.interval,
      from: new Date(window.fromMs).toISOString(),
      to: new Date(window.toMs).toISOString(),
      data,
      coverage: (chain ? [chain] : names).map((name) => {
        const c = coverage.find((x) => x.chain === name);
        return {
          chain: name,
          from: iso(c?.firstBlockTime ?? null),
          through: iso(c?.throughBlockTime ?? null),
        };
      }),
      labels: { version: book.version },
    };
  }

  return {
    listFlows,
    netflow,
    provenance,
    resolveExchange,
    resolveChain,
    chains: () => chains.map((c) => ({ ...c })),
    knownExchanges,
    book,
  };
}
