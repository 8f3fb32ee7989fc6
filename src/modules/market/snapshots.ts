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
