import type { Clock } from '../../shared/clock.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
import { accountRateWindowMs } from '../../shared/rate-limiter.ts';
import { mergeCells } from './merge.ts';
import { DAY_MS, type UsageCell, type UsageGrain, type UsageRepository, dayOf } from './repository.ts';

/** Usage is counted in buckets of this length; "the last 24 h" is the 144 buckets up to and including now's. */
export const USAGE_BUCKET_MS = 10 * 60_000;
export const USAGE_WINDOW_MS = 24 * 3_600_000;
/** The long view: this many UTC days, today included (daily rows are kept a little longer). */
export const USAGE_DAYS = 30;
/** The current-window view counts per second: the seconds overlapping the rate limiter's window. */
export const USAGE_SECOND_MS = 1_000;
/** Buckets older than this are deleted when flushing; days older than `DAYS_RETAINED`, seconds `SECONDS_RETAIN_MS`. */
const RETAIN_MS = 2 * USAGE_WINDOW_MS;
const DAYS_RETAINED = 35;
const SECONDS_RETAIN_MS = 2 * accountRateWindowMs;
/** Cells kept for a retry when storage is unreachable; beyond this the oldest are dropped (and logged). */
const MAX_UNFLUSHED = 100_000;

/** Who made a request: a console session, or an API token (by id). */
export const CONSOLE_CLIENT = 'console';

type SecondCount = { start: number; requests: number; rateLimited: number };
/**
 * A bucket's counts, with the same requests per second: those of `second` in place (a compare and an
 * increment per request), earlier seconds in `seconds` (one object per second in which the cell was used).
 */
type Cell = {
  requests: number;
  rateLimited: number;
  second: number;
  secondRequests: number;
  secondRateLimited: number;
  seconds: SecondCount[] | undefined;
};
/** account → client → route → method → counts, for one bucket (nested maps: no key string per request). */
type Bucket = { start: number; accounts: Map<string, Map<string, Map<string, Map<string, Cell>>>> };

export interface UsageEndpointCount {
  endpoint: string;
  requests: number;
  rateLimited: number;
}

export interface UsageClientCount {
  client: string;
  requests: number;
  rateLimited: number;
}

export interface UsageTotals {
  /** Start of the oldest bucket (or day) counted. */
  since: number;
  requests: number;
  rateLimited: number;
  byEndpoint: UsageEndpointCount[];
  byClient: UsageClientCount[];
}

export interface UsageCounterOptions {
  repo: UsageRepository;
  clock: Clock;
  /** How often counts are written to storage. */
  flushMs: number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

/**
 * Counts each account's requests and 429s per client and endpoint without a database write per request: a
 * request adds to numbers in memory (a few map lookups), and every `flushMs` the counts are added to storage
 * in one transaction. Storage adds rather than overwrites, so every API replica flushes its own counts into
 * the same rows and the totals are exact across replicas to within one flush interval; reads on a replica
 * add what it has not flushed yet, so its own requests count at once. The same requests are also counted
 * per second (kept two minutes), for the current rate-limit window's view.
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
  /** The same per second (pending seconds older than the current window's retention are let go). */
  let inFlightSeconds: UsageCell[] = [];
  let unflushedSeconds: UsageCell[] = [];

  function child<V>(map: Map<string, V>, key: string, make: () => V): V {
    let found = map.get(key);
    if (found === undefined) {
      found = make();
      map.set(key, found);
    }
    return found;
  }

  /** The cell's count of its last second joins the earlier ones; `second` starts at zero. */
  function nextSecond(cell: Cell, second: number): void {
    const past = { start: cell.second, requests: cell.secondRequests, rateLimited: cell.secondRateLimited };
    if (cell.seconds) cell.seconds.push(past);
    else cell.seconds = [past];
    cell.second = second;
    cell.secondRequests = 0;
    cell.secondRateLimited = 0;
  }

  function record(
    accountId: string,
    client: string,
    method: string,
    route: string,
    rateLimited: boolean,
  ): void {
    const now = clock.now();
    if (now >= currentEnd || now < current.start) {
      closed.push(current);
      current = { start: bucketOf(now), accounts: new Map() };
      currentEnd = current.start + USAGE_BUCKET_MS;
    }
    const clients = child(current.accounts, accountId, () => new Map());
    const routes = child(clients, client, () => new Map());
    const methods = child(routes, route, () => new Map<string, Cell>());
    const second = now - (now % USAGE_SECOND_MS);
    const cell = methods.get(method);
    if (cell) {
      if (cell.second !== second) nextSecond(cell, second);
      cell.requests++;
      cell.secondRequests++;
      if (rateLimited) {
        cell.rateLimited++;
        cell.secondRateLimited++;
      }
    } else {
      const limited = rateLimited ? 1 : 0;
      methods.set(method, {
        requests: 1,
        rateLimited: limited,
        second,
        secondRequests: 1,
        secondRateLimited: limited,
        seconds: undefined,
      });
    }
  }

  function eachCell(
    bucket: Bucket,
    only: string | undefined,
    visit: (accountId: string, client: string, endpoint: string, cell: Cell) => void,
  ): void {
    for (const [accountId, clients] of bucket.accounts) {
      if (only !== undefined && accountId !== only) continue;
      for (const [client, routes] of clients) {
        for (const [route, methods] of routes) {
          for (const [method, cell] of methods) visit(accountId, client, `${method} ${route}`, cell);
        }
      }
    }
  }

  function cellsOf(bucket: Bucket, only?: string): UsageCell[] {
    const out: UsageCell[] = [];
    eachCell(bucket, only, (accountId, client, endpoint, c) =>
      out.push({
        accountId,
        bucket: bucket.start,
        client,
        endpoint,
        requests: c.requests,
        rateLimited: c.rateLimited,
      }),
    );
    return out;
  }

  /** The bucket's counts per second (`bucket` holding the second's start). */
  function secondCellsOf(bucket: Bucket, only?: string): UsageCell[] {
    const out: UsageCell[] = [];
    eachCell(bucket, only, (accountId, client, endpoint, c) => {
      for (const s of c.seconds ?? [])
        out.push({
          accountId,
          bucket: s.start,
          client,
          endpoint,
          requests: s.requests,
          rateLimited: s.rateLimited,
        });
      out.push({
        accountId,
        bucket: c.second,
        client,
        endpoint,
        requests: c.secondRequests,
        rateLimited: c.secondRateLimited,
      });
    });
    return out;
  }

  async function flushOnce(): Promise<void> {
    const taken = [current, ...closed];
    current = { start: current.start, accounts: new Map() };
    closed = [];
    // Cells kept from a failed flush and new ones may share a row (account, bucket, client, endpoint): one
    // upsert may not touch a row twice, so they are added up first.
    inFlight = mergeCells([...unflushed, ...taken.flatMap((b) => cellsOf(b))]);
    inFlightSeconds = mergeCells([...unflushedSeconds, ...taken.flatMap((b) => secondCellsOf(b))]);
    unflushed = [];
    unflushedSeconds = [];
    if (!inFlight.length && !inFlightSeconds.length) return;
    try {
      await repo.add(inFlight, inFlightSeconds);
      inFlight = [];
      inFlightSeconds = [];
      const now = clock.now();
      await repo.prune(now - RETAIN_MS, dayOf(now) - DAYS_RETAINED * DAY_MS, now - SECONDS_RETAIN_MS);
    } catch (error) {
      unflushed = [...inFlight, ...unflushed];
      const keepFrom = clock.now() - SECONDS_RETAIN_MS;
      unflushedSeconds = [...inFlightSeconds, ...unflushedSeconds].filter((c) => c.bucket >= keepFrom);
      inFlight = [];
      inFlightSeconds = [];
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

  function pendingOf(accountId: string, grain: UsageGrain): UsageCell[] {
    const [of, flushing, failed] =
      grain === 'second'
        ? [secondCellsOf, inFlightSeconds, unflushedSeconds]
        : [cellsOf, inFlight, unflushed];
    return [
      ...of(current, accountId),
      ...closed.flatMap((b) => of(b, accountId)),
      ...flushing.filter((c) => c.accountId === accountId),
      ...failed.filter((c) => c.accountId === accountId),
    ];
  }

  async function sum(accountId: string, since: number, grain: UsageGrain): Promise<UsageTotals> {
    const stored = await repo.totals(accountId, since, grain);
    const startOf = grain === 'day' ? dayOf : (ms: number) => ms;
    const pending = pendingOf(accountId, grain).filter((c) => startOf(c.bucket) >= since);
    const endpoints = new Map<string, UsageEndpointCount>();
    const clients = new Map<string, UsageClientCount>();
    for (const c of [...stored, ...pending]) {
      const e = child(endpoints, c.endpoint, () => ({ endpoint: c.endpoint, requests: 0, rateLimited: 0 }));
      e.requests += c.requests;
      e.rateLimited += c.rateLimited;
      const k = child(clients, c.client, () => ({ client: c.client, requests: 0, rateLimited: 0 }));
      k.requests += c.requests;
      k.rateLimited += c.rateLimited;
    }
    const byCount =
      <T extends { requests: number }>(key: (x: T) => string) =>
      (a: T, b: T) =>
        b.requests - a.requests || key(a).localeCompare(key(b));
    const byEndpoint = [...endpoints.values()].sort(byCount((e) => e.endpoint));
    return {
      since,
      requests: byEndpoint.reduce((n, e) => n + e.requests, 0),
      rateLimited: byEndpoint.reduce((n, e) => n + e.rateLimited, 0),
      byEndpoint,
      byClient: [...clients.values()].sort(byCount((c) => c.client)),
    };
  }

  // flushOnce keeps what it could not write and logs it itself.
  const flusher = periodicJob({ name: 'usage-flush', everyMs: options.flushMs, run: flushOnce });
  /** Writes the pending counts now (also on shutdown). Concurrent calls share one flush. */
  const flush = (): Promise<void> => flusher.runNow();

  return {
    record,
    flush,
    /** Requests and 429s of an account over the last 24 h (storage plus what is pending here). */
    totals(accountId: string): Promise<UsageTotals> {
      return sum(accountId, bucketOf(clock.now()) - USAGE_WINDOW_MS + USAGE_BUCKET_MS, 'bucket');
    },
    /**
     * The same over the rate limiter's current window (`accountRateWindowMs`, sliding): the seconds it
     * overlaps, so from at most one second before the limiter's window starts.
     */
    currentWindow(accountId: string): Promise<UsageTotals> {
      const from = clock.now() - accountRateWindowMs + 1;
      return sum(accountId, from - (from % USAGE_SECOND_MS), 'second');
    },
    /** The same over the last `USAGE_DAYS` UTC days, today included. */
    days(accountId: string): Promise<UsageTotals> {
      return sum(accountId, dayOf(clock.now()) - (USAGE_DAYS - 1) * DAY_MS, 'day');
    },
    start: flusher.start,
    async stop(): Promise<void> {
      await flusher.stop();
      await flush();
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
