import { type Interval, INTERVAL_MS } from '../identifiers/index.ts';
import { type Candle, floorTo } from './candles.ts';

export const ROLLUP_INTERVALS = ['5m', '15m', '1h', '4h', '1d'] as const satisfies readonly Interval[];

/** Builds 1-minute candles from trades. Trades are bucketed by exchange time. */
export class MinuteBuilder {
  current: Candle | undefined;
  /** Close of the last closed bar: the next bar opens from its first trade, not from here. */
  lastClose: number | undefined;

  constructor(private readonly onClose: (candle: Candle) => void) {}

  /**
   * Adds a trade. A trade for a minute that is already closed (later than the grace period) is folded
   * into the current bar: closed bars are final.
   */
  trade(price: number, size: number, timeMs: number): void {
    const bucket = Math.floor(timeMs / 60_000) * 60_000;
    let c = this.current;
    if (c !== undefined && bucket > c.openTime) {
      this.close();
      c = undefined;
    }
    if (c === undefined) {
      if (this.lastOpenTime !== undefined && bucket <= this.lastOpenTime) {
        // late trade for a closed minute: goes into the next minute's bar
        this.current = bar(this.lastOpenTime + 60_000, price, size);
      } else {
        this.current = bar(bucket, price, size);
      }
      return;
    }
    if (price > c.high) c.high = price;
    if (price < c.low) c.low = price;
    c.close = price;
    c.volume += size;
    c.quoteVolume += price * size;
  }

  private lastOpenTime: number | undefined;

  /** Closes the current bar when its minute ended at least `graceMs` before `now`. */
  closeUpTo(now: number, graceMs: number): void {
    const c = this.current;
    if (c !== undefined && c.openTime + 60_000 + graceMs <= now) this.close();
  }

  private close(): void {
    const c = this.current!;
    this.current = undefined;
    this.lastOpenTime = c.openTime;
    this.lastClose = c.close;
    this.onClose(c);
  }
}

const bar = (openTime: number, price: number, size: number): Candle => ({
  openTime,
  open: price,
  high: price,
  low: price,
  close: price,
  volume: size,
  quoteVolume: price * size,
});

/**
 * Rolls closed 1-minute candles up into 5m, 15m, 1h, 4h and 1d. A coarser bar closes when its last minute
 * closes, or when a minute of a later bucket arrives (a gap at the end of the bucket).
 */
export class Rollup {
  readonly current = new Map<Interval, Candle>();

  constructor(private readonly onClose: (interval: Interval, candle: Candle) => void) {}

  feed(minute: Candle): void {
    for (const interval of ROLLUP_INTERVALS) {
      const ms = INTERVAL_MS[interval];
      const bucket = floorTo(minute.openTime, ms);
      let c = this.current.get(interval);
      if (c !== undefined && c.openTime !== bucket) {
        this.current.delete(interval);
        this.onClose(interval, c);
        c = undefined;
      }
      if (c === undefined) {
        c = { ...minute, openTime: bucket };
        this.current.set(interval, c);
      } else {
        if (minute.high > c.high) c.high = minute.high;
        if (minute.low < c.low) c.low = minute.low;
        c.close = minute.close;
        c.volume += minute.volume;
        c.quoteVolume += minute.quoteVolume;
      }
      if (minute.openTime + 60_000 === bucket + ms) {
        this.current.delete(interval);
        this.onClose(interval, c);
      }
    }
  }
}

/** Combines a partial coarser bar with the open minute into the open bar shown to clients. */
export function combineOpen(
  partial: Candle | undefined,
  minute: Candle | undefined,
  interval: Interval,
): Candle | undefined {
  if (!minute) return partial ? { ...partial } : undefined;
  const bucket = floorTo(minute.openTime, INTERVAL_MS[interval]);
  if (!partial || partial.openTime !== bucket) return { ...minute, openTime: bucket };
  return {
    openTime: partial.openTime,
    open: partial.open,
    high: Math.max(partial.high, minute.high),
    low: Math.min(partial.low, minute.low),
    close: minute.close,
    volume: partial.volume + minute.volume,
    quoteVolume: partial.quoteVolume + minute.quoteVolume,
  };
}
