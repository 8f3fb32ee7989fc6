import type { Clock } from '../../shared/clock.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
import type { UsageCell, UsageRepository } from './repository.ts';

/** Usage is counted in buckets of this length; "the last 24 h" is the 144 buckets up to and including now's. */
export const USAGE_BUCKET_MS = 10 * 60_000;
export const USAGE_WINDOW_MS = 24 * 3_600_000;
/** Buckets older than this are deleted when flushing. */
const RETAIN_MS = 2 * USAGE_WINDOW_MS;
/** Cells kept for a retry when storage is unreachable; beyond this the oldest are dropped (and logged). */
const MAX_UNFLUSHED = 100_000;

type Cell = { requests: number; rateLimited: number };
/** account → route → method → counts, for one bucket. */
type Bucket = { start: number; accounts: Map<string, Map<string, Map<string, Cell>>> };

export interface UsageTotals {
  /** Start of the oldest bucket counted. */
  since: number;
  requests: number;
  rateLimited: number;
  byEndpoint: Array<{ endpoint: string; requests: number; rateLimited: number }>;
}

export interface UsageCounterOptions {
  repo: UsageRepository;
  clock: Clock;
  /** How often counts are written to storage. */
  flushMs: number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

/**
 * Counts each account's requests and 429s per endpoint without a database write per request: a request adds
 * to numbers in memory (a few map lookups), and every `flushMs` the counts are added to storage in one
 * statement. Storage adds rather than overwrites, so every API replica flushes its own counts into the
 * same rows and the totals are exact across replicas to within one flush interval; reads on a replica add
 * what it has not flushed yet, so its own requests count at once.
 */
export function createUsageCounter(options: UsageCounterOptions) {
  const { repo, clock } = options;
  const bucketOf = (ms: number) => ms - (ms % USAGE_BUCKET_MS);
  let current: Bucket = { start: bucketOf(clock.now()), accounts: new Map() };
  let currentEnd = current.start + USAGE_BUCKET_MS;
  /** Closed buckets, cells of a flush under way, and cells of flushes that failed: not yet in storage. */
  let closed: Bucket[] = [];
  let inFlight: UsageCell[] = [];
  let unflushed: UsageCell[] = [];

  function record(accountId: string, method: string, route: string, rateLimited: boolean): void {
    const now = clock.now();
    if (now >= currentEnd || now < current.start) {
      closed.push(current);
      current = { start: bucketOf(now), accounts: new Map() };
      currentEnd = current.start + USAGE_BUCKET_MS;
    }
    let routes = current.accounts.get(accountId);
    if (!routes) {
      routes = new Map();
      current.accounts.set(accountId, routes);
    }
    let methods = routes.get(route);
    if (!methods) {
      methods = new Map();
      routes.set(route, methods);
    }
    const cell = methods.get(method);
    if (cell) {
      cell.requests++;
      if (rateLimited) cell.rateLimited++;
    } else methods.set(method, { requests: 1, rateLimited: rateLimited ? 1 : 0 });
  }

  function cellsOf(bucket: Bucket, only?: string): UsageCell[] {
    const out: UsageCell[] = [];
    for (const [accountId, routes] of bucket.accounts) {
      if (only !== undefined && accountId !== only) continue;
      for (const [route, methods] of routes) {
        for (const [method, cell] of methods) {
          out.push({ accountId, bucket: bucket.start, endpoint: `${method} ${route}`, ...cell });
        }
      }
    }
    return out;
  }

  async function flushOnce(): Promise<void> {
    const taken = [current, ...closed];
    current = { start: current.start, accounts: new Map() };
    closed = [];
    // Cells kept from a failed flush and new ones may share a row (account, bucket, endpoint): one upsert may
    // not touch a row twice, so they are added up first.
    inFlight = mergeCells([...unflushed, ...taken.flatMap((b) => cellsOf(b))]);
    unflushed = [];
    if (!inFlight.length) return;
    try {
      await repo.add(inFlight);
      inFlight = [];
      await repo.prune(clock.now() - RETAIN_MS);
    } catch (error) {
      unflushed = [...inFlight, ...unflushed];
      inFlight = [];
      if (unflushed.length > MAX_UNFLUSHED) {
        const dropped = unflushed.length - MAX_UNFLUSHED;
        unflushed = unflushed.slice(-MAX_UNFLUSHED);
        options.log?.('usage: storage unreachable too long; oldest counts dropped', { dropped });
      }
      options.log?.('usage: flush failed; counts kept for the next flush', {
        error: (error as Error).message,
      });
    }
  }

  // flushOnce keeps what it could not write and logs it itself.
  const flusher = periodicJob({ name: 'usage-flush', everyMs: options.flushMs, run: flushOnce });
  /** Writes the pending counts now (also on shutdown). Concurrent calls share one flush. */
  const flush = (): Promise<void> => flusher.runNow();

  return {
    record,
    flush,
    /** Requests and 429s of an account over the last 24 h, per endpoint (storage plus what is pending here). */
    async totals(accountId: string): Promise<UsageTotals> {
      const since = bucketOf(clock.now()) - USAGE_WINDOW_MS + USAGE_BUCKET_MS;
      const stored = await repo.totals(accountId, since);
      const pending = [
        ...cellsOf(current, accountId),
        ...closed.flatMap((b) => cellsOf(b, accountId)),
        ...inFlight.filter((c) => c.accountId === accountId),
        ...unflushed.filter((c) => c.accountId === accountId),
      ].filter((c) => c.bucket >= since);
      const by = new Map(stored.map((e) => [e.endpoint, { ...e }]));
      for (const c of pending) {
        const entry = by.get(c.endpoint) ?? { endpoint: c.endpoint, requests: 0, rateLimited: 0 };
        entry.requests += c.requests;
        entry.rateLimited += c.rateLimited;
        by.set(c.endpoint, entry);
      }
      const byEndpoint = [...by.values()].sort(
        (a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint),
      );
      return {
        since,
        requests: byEndpoint.reduce((n, e) => n + e.requests, 0),
        rateLimited: byEndpoint.reduce((n, e) => n + e.rateLimited, 0),
        byEndpoint,
      };
    },
    start: flusher.start,
    async stop(): Promise<void> {
      await flusher.stop();
      await flush();
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;

/** One cell per account, bucket and endpoint, with the counts of every cell given for it added up. */
export function mergeCells(cells: readonly UsageCell[]): UsageCell[] {
  const byKey = new Map<string, UsageCell>();
  for (const c of cells) {
    const key = `${c.accountId}\u0000${c.bucket}\u0000${c.endpoint}`;
    const found = byKey.get(key);
    if (found) {
      found.requests += c.requests;
      found.rateLimited += c.rateLimited;
    } else byKey.set(key, { ...c });
  }
  return [...byKey.values()];
}
