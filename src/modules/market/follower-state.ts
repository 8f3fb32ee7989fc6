import type { Clock } from '../../shared/clock.ts';
import type { Interval } from '../identifiers/index.ts';
import type { Candle } from './candles.ts';
import {
  type FollowerBook,
  type MarketSnapshotMessage,
  decodeFollowerWire,
  followerSlippage,
} from './follower.ts';
import { type MarketDataItem, presentSlippage } from './present.ts';
import { type MarketDataBodies, newestVenueUpdate } from './snapshots.ts';

/** One symbol's freshness as the answers show it (see `MarketRuntime.freshness`). */
export interface Freshness {
  mid: number | null;
  updatedAt: number;
  venues: Array<{ venue: string; stale: boolean; outlier: boolean; updatedAt: number | null }>;
}

/**
 * Follower mode (an API replica without the market job): what it adopted from the worker's published
 * market-data body and `FollowerWire` — the items, the books (slippage for other notionals), the bars in
 * progress — and the worker's time as an offset from this process's clock. An adopted item is aged once its
 * snapshot is older than the staleness window on the worker's clock as this process keeps it (`now`); an aged
 * item is shown with every venue stale, so a stopped worker shows as stale data, never as a frozen fresh one.
 */
export function createFollowerState(deps: {
  symbols: readonly string[];
  clock: Clock;
  /** The market's time (this process's clock plus the adopted offset while following). */
  now: () => number;
  staleMs: number;
  /** Where adopted items are serialized for the all-symbols body and subsets. */
  bodies: MarketDataBodies;
  log?: { warn(obj: unknown, msg?: string): void };
}) {
  const { symbols, clock, staleMs, bodies } = deps;
  const items = new Map<string, MarketDataItem>();
  let books = new Map<string, FollowerBook>();
  let open = new Map<string, Map<Interval, Candle>>();
  let clockOffset = 0;
  // The adopted body re-rendered with every venue stale, built once per adoption when it ages.
  let agedBytes: Buffer | undefined;
  let oldestAdopted = Number.POSITIVE_INFINITY;
  let newestVenue: number | null = null;

  const adoptedAged = (item: MarketDataItem) => deps.now() - Date.parse(item.updatedAt) > staleMs;
  const agedItem = (symbol: string): MarketDataItem | undefined => {
    const item = items.get(symbol);
    if (!item || !adoptedAged(item)) return item;
    return { ...item, venues: item.venues.map((v) => ({ ...v, stale: true })) };
  };

  return {
    /** The worker's time minus this process's clock, as of the last adoption. */
    clockOffset: () => clockOffset,
    /** The newest venue update in the adopted copy (computed once per adoption). */
    asOf: () => newestVenue,
    /** Whether the oldest adopted snapshot is past the staleness window. */
    stale: () => deps.now() - oldestAdopted > staleMs,
    /** The all-symbols body with aged items shown stale (built once per adoption). */
    agedBytes(): Buffer {
      agedBytes ??= Buffer.from(JSON.stringify({ data: symbols.flatMap((s) => agedItem(s) ?? []) }));
      return agedBytes;
    },
    /** A subset's body with aged items shown stale. */
    agedBody(list: readonly string[]): string {
      return JSON.stringify({ data: list.flatMap((s) => agedItem(s) ?? []) });
    },
    /** A subset's body for another notional: the adopted items, slippage re-walked on the published book. */
    bodyForNotional(list: readonly string[], notional: number): string {
      const out: MarketDataItem[] = [];
      for (const symbol of list) {
        const item = agedItem(symbol);
        if (!item) continue;
        const slippage = presentSlippage(followerSlippage(books.get(symbol), notional));
        out.push({ ...item, liquidity: { ...item.liquidity, slippage } });
      }
      return JSON.stringify({ data: out });
    },
    freshness(symbol: string): Freshness | undefined {
      const item = items.get(symbol);
      if (!item) return undefined;
      const updatedAt = Date.parse(item.updatedAt);
      const aged = adoptedAged(item);
      return {
        mid: item.price,
        updatedAt,
        venues: item.venues.map((v) => ({
          venue: v.venue,
          stale: v.stale || aged,
          outlier: v.outlier,
          updatedAt: v.updatedAt === null ? null : Date.parse(v.updatedAt),
        })),
      };
    },
    openCandle: (symbol: string, interval: Interval) => open.get(symbol)?.get(interval),
    /**
     * Adopts a published market-data body and its `FollowerWire`; a malformed body is logged and ignored. A
     * partition's body (`wire.partition` set) replaces the books and bars of its own symbols only, so the
     * partitions' copies add up to the universe, each aging on its own.
     */
    adopt(body: string, wire?: Pick<MarketSnapshotMessage, 'at' | 'books' | 'open' | 'partition'>): void {
      try {
        const parsed = JSON.parse(body) as { data?: MarketDataItem[] };
        const adopted: string[] = [];
        for (const item of parsed.data ?? []) {
          if (typeof item?.symbol !== 'string') continue;
          bodies.set(item.symbol, JSON.stringify(item));
          items.set(item.symbol, item);
          adopted.push(item.symbol);
        }
        bodies.rebuild();
        agedBytes = undefined;
        oldestAdopted = Number.POSITIVE_INFINITY;
        for (const item of items.values())
          oldestAdopted = Math.min(oldestAdopted, Date.parse(item.updatedAt));
        newestVenue = newestVenueUpdate(
          [...items.values()].map((item) =>
            item.venues.map((v) => ({ updatedAt: v.updatedAt === null ? null : Date.parse(v.updatedAt) })),
          ),
        );
        const at = wire?.at;
        if (at !== undefined && Number.isFinite(at)) clockOffset = at - clock.now();
        const decoded = decodeFollowerWire(wire);
        if (wire?.partition === undefined) {
          books = decoded.books;
          open = decoded.open;
        } else {
          for (const symbol of adopted) {
            books.delete(symbol);
            open.delete(symbol);
          }
          for (const [symbol, book] of decoded.books) books.set(symbol, book);
          for (const [symbol, bars] of decoded.open) open.set(symbol, bars);
        }
      } catch (error) {
        deps.log?.warn({ err: error }, 'ignored a malformed market-data body from the bus');
      }
    },
  };
}
