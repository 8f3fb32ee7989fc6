import { type Interval, INTERVAL_MS } from '../identifiers/index.ts';
import { type Candle, mergeByOpenTime, mergeVenueCandles } from './candles.ts';
import { MinuteBuilder, ROLLUP_INTERVALS, Rollup, combineOpen } from './candle-builder.ts';
import { type Consolidated, consolidate, slippage } from './consolidate.ts';
import type { FundingEvent, MarketEvent } from './ports.ts';
import { OrderBook } from './order-book.ts';
import { CandleSeries } from './series.ts';
import type { CandleClosed, MarketSnapshot, VenueView } from './types.ts';

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

const MINUTES_PER_DAY = 1440;
const FLOW_SECONDS = 300;
/** Fewest bars kept per merged series, so a coarse interval still has a useful recent stretch in memory. */
const MIN_SERIES_BARS = 48;

/** Bars of one merged interval held in memory for a window of `memoryDays` (a bound, stated per symbol). */
export function seriesCapacity(interval: Interval, memoryDays: number): number {
  return Math.max(MIN_SERIES_BARS, Math.ceil((86_400_000 / INTERVAL_MS[interval]) * memoryDays));
}

class VenueState {
  readonly book = new OrderBook();
  readonly builder: MinuteBuilder;
  readonly rollup: Rollup;
  lastUpdate: number | null = null;
  funding: FundingEvent | undefined;
  // 24 h rolling volumes, one slot per minute.
  readonly volStamp = new Float64Array(MINUTES_PER_DAY).fill(-1);
  readonly vol = new Float64Array(MINUTES_PER_DAY);
  readonly qvol = new Float64Array(MINUTES_PER_DAY);

  constructor(
    readonly venue: string,
    onMinute: (c: Candle) => void,
    onRollup: (interval: Interval, c: Candle) => void,
  ) {
    this.builder = new MinuteBuilder(onMinute);
    this.rollup = new Rollup(onRollup);
  }

  addMinute(c: Candle): void {
    const slot = Math.floor(c.openTime / 60_000) % MINUTES_PER_DAY;
    this.volStamp[slot] = c.openTime;
    this.vol[slot] = c.volume;
    this.qvol[slot] = c.quoteVolume;
    this.sumDirty = true;
  }

  private sumMinute = -1;
  private sumDirty = true;
  private sumVolume = 0;
  private sumQuote = 0;

  /** 24 h volumes: closed minutes (summed once per minute or after a new bar) plus the open bar. */
  volumes24h(now: number): { volume: number; quoteVolume: number } {
    const minute = Math.floor(now / 60_000);
    if (this.sumDirty || minute !== this.sumMinute) {
      const from = now - 86_400_000;
      let volume = 0;
      let quoteVolume = 0;
      for (let i = 0; i < MINUTES_PER_DAY; i++) {
        if (this.volStamp[i]! >= from) {
          volume += this.vol[i]!;
          quoteVolume += this.qvol[i]!;
        }
      }
      this.sumVolume = volume;
      this.sumQuote = quoteVolume;
      this.sumMinute = minute;
      this.sumDirty = false;
    }
    const open = this.builder.current;
    return {
      volume: this.sumVolume + (open ? open.volume : 0),
      quoteVolume: this.sumQuote + (open ? open.quoteVolume : 0),
    };
  }
}

class SymbolState {
  readonly venues = new Map<string, VenueState>();
  readonly merged = new Map<Interval, CandleSeries>();
  readonly mergedRollup: Rollup;
  /** Closed venue minutes waiting to be merged, by open time. */
  readonly pending = new Map<number, Array<{ venue: string; candle: Candle }>>();
  readonly flowStamp = new Float64Array(FLOW_SECONDS).fill(-1);
  readonly flowBuy = new Float64Array(FLOW_SECONDS);
  readonly flowSell = new Float64Array(FLOW_SECONDS);
  lastMergedMinute = -1;
  /** 24 h statistics of closed merged minutes, recomputed when a minute passes or a bar closes. */
  stats24 = {
    key: '',
    open: undefined as number | undefined,
    high: -Infinity,
    low: Infinity,
    volume: 0,
    quoteVolume: 0,
  };
  consolidated: Consolidated | undefined;
  snapshot: MarketSnapshot | undefined;
  dirty = true;

  constructor(
    readonly symbol: string,
    memoryDays: number,
    onMergedRollup: (interval: Interval, c: Candle) => void,
  ) {
    for (const interval of Object.keys(INTERVAL_MS) as Interval[])
      this.merged.set(interval, new CandleSeries(seriesCapacity(interval, memoryDays)));
    this.mergedRollup = new Rollup(onMergedRollup);
  }

  series(interval: Interval): CandleSeries {
    return this.merged.get(interval)!;
  }

  addFlow(t: number, size: number, buy: boolean): void {
    const sec = Math.floor(t / 1000);
    const slot = sec % FLOW_SECONDS;
    if (this.flowStamp[slot] !== sec) {
      this.flowStamp[slot] = sec;
      this.flowBuy[slot] = 0;
      this.flowSell[slot] = 0;
    }
    if (buy) this.flowBuy[slot]! += size;
    else this.flowSell[slot]! += size;
  }

  flowImbalance(now: number): number | null {
    const from = Math.floor(now / 1000) - FLOW_SECONDS;
    let buy = 0;
    let sell = 0;
    for (let i = 0; i < FLOW_SECONDS; i++) {
      if (this.flowStamp[i]! > from) {
        buy += this.flowBuy[i]!;
        sell += this.flowSell[i]!;
      }
    }
    const total = buy + sell;
    return total > 0 ? (buy - sell) / total : null;
  }
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
      s.snapshot = this.compute(s, now);
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

  private compute(s: SymbolState, now: number): MarketSnapshot {
    const venues = [...s.venues.values()];
    const volumes = venues.map((v) => v.volumes24h(now));
    const c = consolidate(
      venues.map((v, i) => ({
        venue: v.venue,
        book: v.book.state === 'live' ? v.book.frozen() : undefined,
        updatedAt: v.lastUpdate,
        quoteVolume24h: volumes[i]!.quoteVolume,
      })),
      {
        now,
        staleMs: this.options.staleMs,
        outlierBps: this.options.outlierBps,
        notional: this.options.notional,
      },
    );
    s.consolidated = c;
    const venueViews: VenueView[] = c.venues.map((r, i) => ({
      ...r,
      volume24h: volumes[i]!.volume,
      quoteVolume24h: volumes[i]!.quoteVolume,
    }));
    // 24 h statistics of the merged series: closed 1m bars of the last 24 h plus the open minute.
    const from = now - 86_400_000;
    const st = s.stats24;
    const key = `${Math.floor(now / 60_000)}|${s.lastMergedMinute}|${s.series('1m').length}`;
    if (st.key !== key) {
      st.key = key;
      st.open = undefined;
      st.high = -Infinity;
      st.low = Infinity;
      st.volume = 0;
      st.quoteVolume = 0;
      for (const bar of s.series('1m').since(from)) {
        if (st.open === undefined) st.open = bar.open;
        if (bar.high > st.high) st.high = bar.high;
        if (bar.low < st.low) st.low = bar.low;
        st.volume += bar.volume;
        st.quoteVolume += bar.quoteVolume;
      }
    }
    let high = st.high;
    let low = st.low;
    let volume = st.volume;
    let quoteVolume = st.quoteVolume;
    let open24 = st.open;
    const openMinute = this.openMinute(s);
    if (openMinute) {
      if (open24 === undefined) open24 = openMinute.open;
      high = Math.max(high, openMinute.high);
      low = Math.min(low, openMinute.low);
      volume += openMinute.volume;
      quoteVolume += openMinute.quoteVolume;
    }
    const price = c.mid ?? openMinute?.close ?? s.series('1m').last?.close ?? null;
    let fundingSum = 0;
    let fundingN = 0;
    let markSum = 0;
    let markN = 0;
    for (const v of venues) {
      if (!v.funding) continue;
      fundingSum += v.funding.rate;
      fundingN++;
      if (v.funding.markPrice !== undefined) {
        markSum += v.funding.markPrice;
        markN++;
      }
    }
    return {
      symbol: s.symbol,
      mid: price,
      bestBid: c.bestBid,
      bestAsk: c.bestAsk,
      spreadBps: c.spreadBps,
      bookImbalance: c.bookImbalance,
      tradeImbalance5m: s.flowImbalance(now),
      fundingRate: fundingN ? fundingSum / fundingN : null,
      basisBps: markN && price ? (markSum / markN / price - 1) * 10_000 : null,
      change24hPct: open24 !== undefined && price !== null ? (price / open24 - 1) * 100 : null,
      high24h: Number.isFinite(high) ? high : null,
      low24h: Number.isFinite(low) ? low : null,
      volume24h: volume,
      quoteVolume24h: quoteVolume,
      vwap24h: volume > 0 ? quoteVolume / volume : null,
      depth: c.depth,
      slippage: c.slippage,
      venues: venueViews,
      updatedAt: now,
    };
  }

  /** The merged open minute: venues' current bars merged. */
  private openMinute(s: SymbolState): Candle | undefined {
    const bars: Candle[] = [];
    let t = -1;
    for (const v of s.venues.values()) {
      const b = v.builder.current;
      if (!b) continue;
      if (b.openTime > t) {
        t = b.openTime;
        bars.length = 0;
      }
      if (b.openTime === t) bars.push(b);
    }
    return mergeVenueCandles(bars);
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
    const minute = this.openMinute(s);
    if (interval === '1m') return minute;
    return combineOpen(s.mergedRollup.current.get(interval), minute, interval);
  }

  /** Latest merged 1m bar open time, -1 when none. */
  lastMergedMinute(symbol: string): number {
    return this.state.get(symbol)?.lastMergedMinute ?? -1;
  }
}
