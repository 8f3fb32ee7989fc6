import type { Interval } from '../identifiers/index.ts';
import { type Candle, mergeByOpenTime, mergeVenueCandles } from './candles.ts';
import { ROLLUP_INTERVALS, Rollup, combineOpen } from './candle-builder.ts';
import { type Consolidated, slippage } from './consolidate.ts';
import type { MarketEvent } from './ports.ts';
import type { CandleSeries } from './series.ts';
import { computeSnapshot, mergedOpenMinute } from './symbol-snapshot.ts';
import { FLOW_SECONDS, MINUTES_PER_DAY, SymbolState, VenueState } from './symbol-state.ts';
import type { CandleClosed, MarketSnapshot } from './types.ts';

export const MERGED = 'merged';

export interface EngineOptions {
  symbols: readonly string[];
  venues: readonly string[];
  /** Venue excluded when silent for longer than this (ms). */
  staleMs: number;
  outlierBps: number;
  /** Default slippage notional (quote currency). */
  notional: number;
  /** How long after a minute ends late trades are still accepted before the bar closes (ms). */
  graceMs: number;
  /**
   * Days of merged candles kept in memory per interval: the working window (24 h statistics, the model's
   * features, recent charts). Older history is read from storage (or computed, for a simulated source).
   */
  memoryDays: number;
  /** Asked when a book loses sequence (the source should send a fresh snapshot). */
  onGap?: (venue: string, symbol: string) => void;
}

/**
 * The market engine: ingests normalized events, keeps books, builds candles per venue and merged, and
 * computes merged snapshots on `tick`. Synchronous and free of I/O: the service around it persists,
 * serializes and schedules.
 */
export class MarketEngine {
  private readonly state = new Map<string, SymbolState>();
  private readonly closedHandlers: Array<(e: CandleClosed) => void> = [];
  /** Counters for metrics and tests. */
  readonly stats = { events: 0, gaps: 0, ignored: 0 };

  constructor(readonly options: EngineOptions) {
    for (const symbol of options.symbols) {
      const s = new SymbolState(symbol, options.memoryDays, (interval, candle) => {
        s.series(interval).push(candle);
        this.emit({ symbol, venue: MERGED, interval, candle });
      });
      for (const venue of options.venues) this.addVenue(s, venue);
      this.state.set(symbol, s);
    }
  }

  private addVenue(s: SymbolState, venue: string): VenueState {
    const v = new VenueState(
      venue,
      (candle) => {
        v.addMinute(candle);
        v.rollup.feed(candle);
        let list = s.pending.get(candle.openTime);
        if (!list) {
          list = [];
          s.pending.set(candle.openTime, list);
        }
        list.push({ venue, candle });
        this.emit({ symbol: s.symbol, venue, interval: '1m', candle });
      },
      (interval, candle) => this.emit({ symbol: s.symbol, venue, interval, candle }),
    );
    s.venues.set(venue, v);
    return v;
  }

  onCandleClosed(handler: (e: CandleClosed) => void): () => void {
    this.closedHandlers.push(handler);
    return () => {
      const i = this.closedHandlers.indexOf(handler);
      if (i >= 0) this.closedHandlers.splice(i, 1);
    };
  }

  private emit(e: CandleClosed): void {
    for (const h of this.closedHandlers) h(e);
  }

  symbols(): string[] {
    return [...this.state.keys()];
  }

  has(symbol: string): boolean {
    return this.state.has(symbol);
  }

  /** The hot path: one normalized event. */
  ingest(e: MarketEvent): void {
    const s = this.state.get(e.symbol);
    if (s === undefined) {
      this.stats.ignored++;
      return;
    }
    const v = s.venues.get(e.venue) ?? this.addVenue(s, e.venue);
    this.stats.events++;
    s.dirty = true;
    switch (e.kind) {
      case 'trade':
        v.builder.trade(e.price, e.size, e.exchangeTime);
        s.addFlow(e.exchangeTime, e.size, e.side === 'buy');
        v.lastUpdate = e.receiveTime;
        break;
      case 'book_snapshot':
        v.book.applySnapshot(e);
        v.lastUpdate = e.receiveTime;
        break;
      case 'book_delta':
        if (v.book.applyDelta(e)) v.lastUpdate = e.receiveTime;
        else if (v.book.state === 'gap') {
          this.stats.gaps++;
          this.options.onGap?.(e.venue, e.symbol);
        }
        break;
      case 'funding':
        v.funding = e;
        break;
    }
  }

  /**
   * Loads closed merged 1m history (oldest first), e.g. read from storage or computed, and rebuilds the
   * coarser merged series from the result. Minutes the engine already holds (built live while the history
   * was being read) win over loaded ones for the same minute. Does not emit candle-closed events.
   */
  loadHistory(symbol: string, minutes: readonly Candle[]): void {
    const s = this.state.get(symbol);
    if (!s || minutes.length === 0) return;
    const series = s.series('1m');
    const held = series.range(0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const merged = mergeByOpenTime(minutes, held);
    series.load(merged);
    const rollups = new Map<Interval, Candle[]>();
    const silent = new Rollup((interval, c) => {
      let list = rollups.get(interval);
      if (!list) {
        list = [];
        rollups.set(interval, list);
      }
      list.push(c);
    });
    for (const c of merged) silent.feed(c);
    for (const interval of ROLLUP_INTERVALS) {
      s.series(interval).load(rollups.get(interval) ?? []);
      const open = silent.current.get(interval);
      if (open) s.mergedRollup.current.set(interval, { ...open });
      else s.mergedRollup.current.delete(interval);
    }
    s.lastMergedMinute = Math.max(s.lastMergedMinute, merged.at(-1)!.openTime);
    s.dirty = true;
  }

  /** Loads a venue's recent closed minutes (for its 24 h volume). */
  loadVenueMinutes(symbol: string, venue: string, minutes: readonly Candle[]): void {
    const s = this.state.get(symbol);
    if (!s) return;
    const v = s.venues.get(venue) ?? this.addVenue(s, venue);
    for (const c of minutes) v.addMinute(c);
  }

  /** Closes due candles and recomputes snapshots. Returns the symbols whose snapshot was recomputed. */
  tick(now: number): string[] {
    const changed: string[] = [];
    for (const s of this.state.values()) {
      for (const v of s.venues.values()) v.builder.closeUpTo(now, this.options.graceMs);
      this.mergeDue(s, now);
      // Time alone changes stale flags and 24 h windows: recompute at least when dirty or every call.
      s.consolidated = undefined;
      s.snapshot = computeSnapshot(s, now, this.options);
      s.dirty = false;
      changed.push(s.symbol);
    }
    return changed;
  }

  private mergeDue(s: SymbolState, now: number): void {
    if (s.pending.size === 0) return;
    const due = [...s.pending.keys()]
      .filter((t) => t + 60_000 + this.options.graceMs <= now)
      .sort((a, b) => a - b);
    for (const t of due) {
      const list = s.pending.get(t)!;
      s.pending.delete(t);
      if (t <= s.lastMergedMinute) continue;
      const excluded = new Set(s.snapshot?.venues.filter((v) => v.outlier).map((v) => v.venue) ?? []);
      const use = list.filter((x) => !excluded.has(x.venue));
      const candle = mergeVenueCandles((use.length ? use : list).map((x) => x.candle))!;
      s.lastMergedMinute = t;
      s.series('1m').push(candle);
      this.emit({ symbol: s.symbol, venue: MERGED, interval: '1m', candle });
      s.mergedRollup.feed(candle);
    }
  }

  snapshot(symbol: string): MarketSnapshot | undefined {
    return this.state.get(symbol)?.snapshot;
  }

  /** Slippage for another notional against the last consolidated book. */
  slippageFor(
    symbol: string,
    notional: number,
  ): { notional: number; buyBps: number | null; sellBps: number | null } {
    const s = this.state.get(symbol);
    const c = s?.consolidated;
    if (!c) return { notional, buyBps: null, sellBps: null };
    return slippage(c.included, c.mid, notional);
  }

  /** The last consolidated book (included venues) and merged mid, undefined before the first tick. */
  consolidatedBook(symbol: string): { included: Consolidated['included']; mid: number | null } | undefined {
    const c = this.state.get(symbol)?.consolidated;
    return c ? { included: c.included, mid: c.mid } : undefined;
  }

  /**
   * Bytes held for a symbol's windows (merged series of every interval, each venue's 24 h volume slots, the
   * 5-minute trade flow), now and at most: books and open bars aside, the part that could grow with history.
   */
  memoryBytes(symbol: string): { held: number; max: number } | undefined {
    const s = this.state.get(symbol);
    if (!s) return undefined;
    let held = 3 * FLOW_SECONDS * 8;
    let max = held;
    for (const series of s.merged.values()) {
      held += series.heldBytes;
      max += series.maxBytes;
    }
    const venueBytes = 3 * MINUTES_PER_DAY * 8;
    held += s.venues.size * venueBytes;
    max += s.venues.size * venueBytes;
    return { held, max };
  }

  recentCandles(symbol: string, interval: Interval, count: number, after?: number): Candle[] {
    return this.state.get(symbol)?.series(interval).lastN(count, after) ?? [];
  }

  memorySeries(symbol: string, interval: Interval): CandleSeries | undefined {
    return this.state.get(symbol)?.series(interval);
  }

  openCandle(symbol: string, interval: Interval): Candle | undefined {
    const s = this.state.get(symbol);
    if (!s) return undefined;
    const minute = mergedOpenMinute(s);
    if (interval === '1m') return minute;
    return combineOpen(s.mergedRollup.current.get(interval), minute, interval);
  }

  /** Latest merged 1m bar open time, -1 when none. */
  lastMergedMinute(symbol: string): number {
    return this.state.get(symbol)?.lastMergedMinute ?? -1;
  }
}
