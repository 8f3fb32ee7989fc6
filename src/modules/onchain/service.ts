import { AppError, validationError } from '../../shared/errors.ts';
import { type Clock, systemClock } from '../../shared/clock.ts';
import { KNOWN_EXCHANGES, normalizeExchange } from '../symbols/index.ts';
import { type AddressBook, defaultExchangeNormalizer } from './address-book.ts';
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

export function encodeCursor(p: FlowPosition): string {
  return Buffer.from(JSON.stringify([p.blockNumber, p.txIndex, p.logIndex, p.exchange])).toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string): FlowPosition | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
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
  } catch {
    return undefined;
  }
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

  const knownExchanges = () => [...new Set<string>([...KNOWN_EXCHANGES, ...book.exchanges()])].sort();

  function resolveExchange(input: string): string {
    try {
      return normalizeExchange(input).exchange;
    } catch (error) {
      // Operators may label exchanges the symbols module does not list; accept those by their plain name.
      const plain = defaultExchangeNormalizer(input);
      if (book.exchanges().includes(plain)) return plain;
      if (!(error instanceof AppError)) throw error;
      const known = knownExchanges();
      throw new AppError(
        'unknown_exchange',
        `exchange ${JSON.stringify(input)} is not known; known exchanges: ${known.join(', ')}`,
        {
          errors: [{ pointer: '/query/exchange', message: `must be one of ${known.join(', ')}` }],
          extra: { known },
        },
      );
    }
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
      before = decodeCursor(input.cursor);
      if (!before)
        problems.push({ pointer: '/query/cursor', message: 'is not a cursor this endpoint returned' });
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
          ? encodeCursor({
              blockNumber: last.blockNumber,
              txIndex: last.txIndex,
              logIndex: last.logIndex,
              exchange: last.exchange,
            })
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
