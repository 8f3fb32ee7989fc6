import type { Clock } from '../../shared/clock.ts';
import { INTERVALS } from '../identifiers/index.ts';
import type { MarketEngine } from './engine.ts';
import { type FollowerWire, encodeCandle, encodeFollowerBook } from './follower.ts';
import { presentSnapshot } from './present.ts';

/** The `snapshot` payload handed to `onPublish` after each tick. */
export interface SnapshotPublication {
  symbols: string[];
  at: number;
  /** The serialized market-data body (all symbols, default notional). */
  body: Buffer;
  /** What followers need besides the body (books for other notionals, bars in progress), on demand. */
  follower: () => FollowerWire;
}

/**
 * The market-data bodies, serialized once per change: one JSON fragment per symbol and the all-symbols body
 * (`{"data":[…]}`, in configuration order) as bytes; a subset's body joins the fragments.
 */
export function createMarketDataBodies(symbols: readonly string[]) {
  const fragments = new Map<string, string>();
  let all = Buffer.from('{"data":[]}');
  const bodyOf = (list: readonly string[]) => {
    const parts: string[] = [];
    for (const s of list) {
      const f = fragments.get(s);
      if (f) parts.push(f);
    }
    return `{"data":[${parts.join(',')}]}`;
  };
  return {
    bodyOf,
    /** The all-symbols body. */
    all: () => all,
    /** Sets one symbol's fragment (the all-symbols body is rebuilt by `rebuild`). */
    set(symbol: string, fragment: string): void {
      fragments.set(symbol, fragment);
    },
    rebuild(): void {
      all = Buffer.from(bodyOf(symbols));
    },
  };
}

export type MarketDataBodies = ReturnType<typeof createMarketDataBodies>;

/** What the market-data pages are made from (the market runtime has both). */
export interface MarketDataSource {
  /**
   * The all-symbols body. The market builds a new buffer whenever the fragments change (each tick; on a
   * follower each adopted copy), so the buffer also tells one snapshot from the next.
   */
  marketDataBytes(): Buffer;
  /** A subset's body (`{"data":[…]}`), joined from the pre-serialized fragments. */
  marketDataBody(symbols: readonly string[]): string;
}

/** A market-data body (`{"data":[…]}`) with the page's `nextCursor` after `data` (a string splice). */
export function withNextCursor(body: string, nextCursor: string | null): string {
  return `${body.slice(0, body.lastIndexOf('}'))},"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/** Pages of one snapshot kept at most, in bytes; past that a page is built for its request alone. */
const MAX_PAGE_BYTES_KEPT = 8 * 1024 * 1024;

/**
 * The pages of GET /api/market-data, `{"data":[…],"nextCursor":…}`: a run of symbols joined from the
 * fragments serialized once per tick, kept as bytes until the snapshot changes, so every client asking for the
 * same page of one snapshot gets the same buffer — joined, hashed (ETag) and compressed once. The snapshot is
 * told by the identity of the all-symbols buffer (`MarketDataSource.marketDataBytes`); a new one drops the
 * pages kept for the previous one. At most `maxBytes` of pages are kept per snapshot.
 */
export function createMarketDataPages(source: MarketDataSource, options: { maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES_KEPT;
  let snapshot: Buffer | undefined;
  const pages = new Map<string, Buffer>();
  let kept = 0;
  const tail = (nextCursor: string | null) => Buffer.from(`,"nextCursor":${JSON.stringify(nextCursor)}}`);
  return {
    /**
     * The page of `symbols` (in that order; `'all'`: every symbol in configured order, spliced from the
     * all-symbols bytes without joining again) with its `nextCursor`.
     */
    page(symbols: readonly string[] | 'all', nextCursor: string | null): Buffer {
      const all = source.marketDataBytes();
      if (all !== snapshot) {
        snapshot = all;
        pages.clear();
        kept = 0;
      }
      const key = `${symbols === 'all' ? '*' : symbols.join(',')}|${nextCursor ?? ''}`;
      const known = pages.get(key);
      if (known !== undefined) return known;
      const bytes =
        symbols === 'all'
          ? Buffer.concat([all.subarray(0, all.lastIndexOf('}')), tail(nextCursor)])
          : Buffer.from(withNextCursor(source.marketDataBody(symbols), nextCursor));
      if (kept + bytes.length <= maxBytes) {
        pages.set(key, bytes);
        kept += bytes.length;
      }
      return bytes;
    },
  };
}

export type MarketDataPages = ReturnType<typeof createMarketDataPages>;

/** What followers need besides the body: each symbol's consolidated book and merged bars in progress. */
function followerWireOf(engine: MarketEngine, symbols: readonly string[]): FollowerWire {
  const wire: FollowerWire = { books: {}, open: {} };
  for (const symbol of symbols) {
    const c = engine.consolidatedBook(symbol);
    if (c) wire.books[symbol] = encodeFollowerBook(c.included, c.mid);
    const bars: FollowerWire['open'][string] = {};
    for (const interval of INTERVALS) {
      const bar = engine.openCandle(symbol, interval);
      if (bar) bars[interval] = encodeCandle(bar);
    }
    wire.open[symbol] = bars;
  }
  return wire;
}

/**
 * One aggregation step (`tick`): the engine's snapshots at the market's time, the changed symbols' fragments
 * and the all-symbols body serialized again, the snapshot handlers called, and a `SnapshotPublication` handed
 * to `onPublish`.
 */
export function createSnapshotTicker(deps: {
  engine: MarketEngine;
  clock: Clock;
  symbols: readonly string[];
  bodies: MarketDataBodies;
  onPublish?: (topic: 'snapshot', payload: SnapshotPublication) => void;
  log?: { warn(obj: unknown, msg?: string): void };
}) {
  const { engine, clock, symbols, bodies } = deps;
  const handlers: Array<(symbols: string[]) => void> = [];
  const follower = () => followerWireOf(engine, symbols);
  let asOf: number | null = null;

  const serialize = (changed: string[]) => {
    for (const symbol of changed) {
      const s = engine.snapshot(symbol);
      if (s) bodies.set(symbol, JSON.stringify(presentSnapshot(s)));
    }
    bodies.rebuild();
    asOf = newestVenueUpdate(symbols.map((s) => engine.snapshot(s)?.venues ?? []));
  };

  return {
    /** The newest update any venue gave, as of the last tick (see `MarketRuntime.asOf`). */
    asOf: () => asOf,
    tick(): void {
      const changed = engine.tick(clock.now());
      serialize(changed);
      for (const h of handlers) {
        try {
          h(changed);
        } catch (error) {
          deps.log?.warn({ err: error }, 'snapshot handler failed');
        }
      }
      const publication: SnapshotPublication = {
        symbols: changed,
        at: clock.now(),
        body: bodies.all(),
        follower,
      };
      deps.onPublish?.('snapshot', publication);
    },
    /** Called after each tick with the symbols whose snapshots changed. Returns an unsubscribe. */
    onSnapshot(handler: (symbols: string[]) => void): () => void {
      handlers.push(handler);
      return () => {
        const i = handlers.indexOf(handler);
        if (i >= 0) handlers.splice(i, 1);
      };
    },
  };
}

/** The newest `updatedAt` over venue lists (null when no venue has updated yet). */
export function newestVenueUpdate(
  venueLists: ReadonlyArray<ReadonlyArray<{ updatedAt: number | null }>>,
): number | null {
  let newest: number | null = null;
  for (const venues of venueLists)
    for (const v of venues)
      if (v.updatedAt !== null && (newest === null || v.updatedAt > newest)) newest = v.updatedAt;
  return newest;
}
