import { type Interval, INTERVAL_MS } from '../identifiers/index.ts';
import type { Candle } from './candles.ts';
import { MinuteBuilder, Rollup } from './candle-builder.ts';
import type { Consolidated } from './consolidate.ts';
import type { FundingEvent } from './ports.ts';
import { OrderBook } from './order-book.ts';
import { CandleSeries } from './series.ts';
import type { MarketSnapshot } from './types.ts';

/**
 * What the engine holds per symbol: each venue's book, bar builders and 24 h volume slots (`VenueState`), and
 * the symbol's merged series, pending minutes, 5-minute trade flow and last snapshot (`SymbolState`).
 */

export const MINUTES_PER_DAY = 1440;
export const FLOW_SECONDS = 300;
/** Fewest bars kept per merged series, so a coarse interval still has a useful recent stretch in memory. */
const MIN_SERIES_BARS = 48;

/** Bars of one merged interval held in memory for a window of `memoryDays` (a bound, stated per symbol). */
export function seriesCapacity(interval: Interval, memoryDays: number): number {
  return Math.max(MIN_SERIES_BARS, Math.ceil((86_400_000 / INTERVAL_MS[interval]) * memoryDays));
}

export class VenueState {
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

export class SymbolState {
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
