import { validationError } from '../../shared/errors.ts';
import type { ChainCoverage, NetflowBucket, OnchainRepository } from './repository.ts';

/**
 * Netflow series: per bucket (1 h or 1 d) the deposits (inflow), withdrawals (outflow) and their difference,
 * in asset units (exact decimal strings, when one asset is asked for) and USD, summed by the database from the
 * stored flows. A bucket the stored flows do not fully cover — before a chain's first indexed block, or past
 * its checkpoint (the indexer behind, or the current hour) — is marked `gap: true`: its sums are partial.
 */
export const NETFLOW_INTERVALS = { '1h': 3_600_000, '1d': 86_400_000 } as const;
export type NetflowInterval = keyof typeof NETFLOW_INTERVALS;
/** Most buckets in one answer (100 days of hours; ten years of days). */
export const MAX_NETFLOW_BUCKETS = 2_400;
const DEFAULT_SPAN: Record<NetflowInterval, number> = { '1h': 7 * 86_400_000, '1d': 90 * 86_400_000 };

export interface NetflowInput {
  interval?: string;
  from?: string;
  to?: string;
}

export interface NetflowPoint {
  time: string;
  timestamp: number;
  /** Asset units; null when the series spans several assets (no `asset` filter). */
  inflow: string | null;
  outflow: string | null;
  netflow: string | null;
  inflowUsd: number;
  outflowUsd: number;
  netflowUsd: number;
  flows: number;
  unpriced: number;
  gap: boolean;
}

/** Exact decimal difference of two non-negative decimal strings. */
export function subtractDecimal(a: string, b: string): string {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const diff = BigInt(ai + af.padEnd(scale, '0')) - BigInt(bi + bf.padEnd(scale, '0'));
  const negative = diff < 0n;
  const digits = (negative ? -diff : diff).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

function parseTime(value: string | undefined, pointer: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = /^\d{1,15}$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms))
    throw validationError([{ pointer, message: 'must be an ISO 8601 time or epoch milliseconds' }]);
  return ms;
}

/** The validated window: interval, first bucket start (aligned down), end (aligned up, exclusive). */
export function netflowWindow(
  input: NetflowInput,
  now: number,
): { interval: NetflowInterval; stepMs: number; fromMs: number; toMs: number } {
  const interval = (input.interval ?? '1h') as NetflowInterval;
  if (!(interval in NETFLOW_INTERVALS))
    throw validationError([{ pointer: '/query/interval', message: 'must be 1h or 1d' }]);
  const stepMs = NETFLOW_INTERVALS[interval];
  const to = parseTime(input.to, '/query/to') ?? now;
  const from = parseTime(input.from, '/query/from') ?? to - DEFAULT_SPAN[interval];
  if (from >= to) throw validationError([{ pointer: '/query/from', message: 'must be before to' }]);
  const fromMs = Math.floor(from / stepMs) * stepMs;
  const toMs = Math.ceil(to / stepMs) * stepMs;
  if ((toMs - fromMs) / stepMs > MAX_NETFLOW_BUCKETS)
    throw validationError([
      {
        pointer: '/query/from',
        message: `the range spans more than ${MAX_NETFLOW_BUCKETS} ${interval} buckets; narrow from/to or use a larger interval`,
      },
    ]);
  return { interval, stepMs, fromMs, toMs };
}

/** Whether [start, end) lies inside what every chain in scope has indexed. */
function covered(start: number, end: number, coverage: ChainCoverage[]): boolean {
  return coverage.every(
    (c) =>
      c.firstBlockTime !== null &&
      c.throughBlockTime !== null &&
      start >= c.firstBlockTime &&
      end - 1 <= c.throughBlockTime,
  );
}

/** Every bucket of the window, empty ones as zeros, each marked when the stored flows do not cover it. */
export async function netflowSeries(
  repo: OnchainRepository,
  query: { exchange?: string; asset?: string; chains: string[]; chain?: string },
  window: { stepMs: number; fromMs: number; toMs: number },
): Promise<NetflowPoint[]> {
  const [rows, allCoverage] = await Promise.all([
    repo.netflow({
      exchange: query.exchange,
      asset: query.asset,
      chain: query.chain,
      intervalMs: window.stepMs,
      fromMs: window.fromMs,
      toMs: window.toMs,
    }),
    repo.coverage(),
  ]);
  const inScope = query.chain ? [query.chain] : query.chains;
  const coverage = inScope.map(
    (chain) =>
      allCoverage.find((c) => c.chain === chain) ?? { chain, firstBlockTime: null, throughBlockTime: null },
  );
  const byStart = new Map<number, NetflowBucket>(rows.map((r) => [r.startMs, r]));
  const out: NetflowPoint[] = [];
  for (let start = window.fromMs; start < window.toMs; start += window.stepMs) {
    const b = byStart.get(start);
    const inflow = b?.inflow ?? '0';
    const outflow = b?.outflow ?? '0';
    const inflowUsd = b?.inflowUsd ?? 0;
    const outflowUsd = b?.outflowUsd ?? 0;
    out.push({
      time: new Date(start).toISOString(),
      timestamp: start,
      inflow: query.asset ? inflow : null,
      outflow: query.asset ? outflow : null,
      netflow: query.asset ? subtractDecimal(inflow, outflow) : null,
      inflowUsd,
      outflowUsd,
      netflowUsd: Math.round((inflowUsd - outflowUsd) * 100) / 100,
      flows: b?.flows ?? 0,
      unpriced: b?.unpriced ?? 0,
      gap: !covered(start, start + window.stepMs, coverage),
    });
  }
  return out;
}
