import { lastAtOrBefore } from '../math.ts';
import type { Bar, FundingPoint, OpenInterestPoint } from '../types.ts';

/** Half-life of the fast range-based EWMA (1.5.0; 5, 10, 20 and 30 minutes compared at 15m on BTC 2021). */
const FAST_HALF_LIFE_MS = 10 * 60_000;

/**
 * One symbol's closed bars with prefix sums, appendable, so every windowed statistic at bar i is O(log n)
 * and depends only on bars 0..i. A bar is "known" at time t iff its close time (openTime + barMs) ≤ t;
 * nothing in this file reads a bar after the index it is given.
 */
export class BarSeries {
  readonly closeTime: number[] = [];
  readonly logClose: number[] = [];
  readonly close: number[] = [];
  /** Each bar's high and low (NaN when the bar's range is not valid): where a price level counts as touched. */
  readonly high: number[] = [];
  readonly low: number[] = [];
  /** Prefix sums over bars: squared log return, volume, volume × close-location value in [-1, 1]. */
  readonly sumSq: number[] = [];
  readonly sumVol: number[] = [];
  readonly sumFlow: number[] = [];
  /** EWMA of squared log return per millisecond (the baseline's variance), half-life 1 hour of time. */
  readonly ewmaVar: number[] = [];
  /**
   * The same EWMA on a range-based variance per bar (Garman–Klass from open/high/low/close, plus the squared
   * gap from the previous close to this open): several times as efficient as the squared close-to-close
   * return for the same bars, so a fast σ is less noisy.
   */
  readonly ewmaRangeVar: number[] = [];
  /** The same range-based EWMA with a short half-life (FAST_HALF_LIFE_MS). */
  readonly fastRangeVar: number[] = [];

  constructor(
    readonly symbol: string,
    readonly barMs: number,
    readonly ewmaHalfLifeMs = 60 * 60_000,
  ) {}

  get length(): number {
    return this.closeTime.length;
  }

  static from(symbol: string, barMs: number, bars: readonly Bar[]): BarSeries {
    const s = new BarSeries(symbol, barMs);
    for (const b of bars) s.append(b);
    return s;
  }

  /** Appends a closed bar; bars at or before the last known close are ignored (idempotent refresh). */
  append(bar: Bar): void {
    const ct = bar.openTime + this.barMs;
    const n = this.closeTime.length;
    if (!(bar.close > 0) || !Number.isFinite(bar.close)) return;
    if (n > 0 && ct <= this.closeTime[n - 1]!) return;
    const lc = Math.log(bar.close);
    const range = bar.high - bar.low;
    const clv = range > 0 ? (bar.close - bar.low - (bar.high - bar.close)) / range : 0;
    const vol = Number.isFinite(bar.volume) && bar.volume > 0 ? bar.volume : 0;
    if (n === 0) {
      this.sumSq.push(0);
      this.sumVol.push(vol);
      this.sumFlow.push(vol * clv);
      const r0 = Math.log(bar.close / bar.open);
      this.ewmaVar.push((r0 * r0) / this.barMs);
      const rangeVar0 = garmanKlass(bar) / this.barMs;
      this.ewmaRangeVar.push(rangeVar0);
      this.fastRangeVar.push(rangeVar0);
    } else {
      const r = lc - this.logClose[n - 1]!;
      const dt = ct - this.closeTime[n - 1]!;
      this.sumSq.push(this.sumSq[n - 1]! + r * r);
      this.sumVol.push(this.sumVol[n - 1]! + vol);
      this.sumFlow.push(this.sumFlow[n - 1]! + vol * clv);
      const lambda = 0.5 ** (dt / this.ewmaHalfLifeMs);
      this.ewmaVar.push(lambda * this.ewmaVar[n - 1]! + ((1 - lambda) * (r * r)) / dt);
      const gap = bar.open > 0 ? Math.log(bar.open) - this.logClose[n - 1]! : 0;
      const rangeVar = garmanKlass(bar) + gap * gap;
      this.ewmaRangeVar.push(lambda * this.ewmaRangeVar[n - 1]! + ((1 - lambda) * rangeVar) / dt);
      const fast = 0.5 ** (dt / FAST_HALF_LIFE_MS);
      this.fastRangeVar.push(fast * this.fastRangeVar[n - 1]! + ((1 - fast) * rangeVar) / dt);
    }
    this.closeTime.push(ct);
    this.logClose.push(lc);
    this.close.push(bar.close);
    const valid = bar.low > 0 && bar.high >= bar.low;
    this.high.push(valid ? bar.high : Number.NaN);
    this.low.push(valid ? bar.low : Number.NaN);
  }

  /**
   * Drops the oldest bars beyond `keep` once there are more than `keep + slack`, so memory stays bounded
   * whatever the uptime. Prefix sums are rebased to start at the first kept bar, so every window statistic
   * over kept bars is unchanged. Indices shift: callers hold times, never indices, across appends.
   */
  trim(keep: number, slack = Math.ceil(keep / 8)): void {
    const n = this.closeTime.length;
    if (n <= keep + slack) return;
    const drop = n - keep;
    // The first kept bar has no return within the series (sumSq 0), and its own volume and flow.
    const sq = this.sumSq[drop]!;
    const vol = this.sumVol[drop - 1]!;
    const flow = this.sumFlow[drop - 1]!;
    for (const column of [
      this.closeTime,
      this.logClose,
      this.close,
      this.high,
      this.low,
      this.sumSq,
      this.sumVol,
      this.sumFlow,
      this.ewmaVar,
      this.ewmaRangeVar,
      this.fastRangeVar,
    ])
      column.splice(0, drop);
    for (let i = 0; i < keep; i++) {
      this.sumSq[i]! -= sq;
      this.sumVol[i]! -= vol;
      this.sumFlow[i]! -= flow;
    }
  }

  /**
   * The highest high and lowest low of the bars that open at or after `from` and close by `to`, as log prices
   * over `baseline` (undefined: no such bar with a valid range). Reads no bar closing after `to`.
   */
  extremes(from: number, to: number, baseline: number): { maxLog: number; minLog: number } | undefined {
    let max = Number.NEGATIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    for (let i = this.indexAt(to); i >= 0 && this.closeTime[i]! - this.barMs >= from; i--) {
      if (this.high[i]! > max) max = this.high[i]!;
      if (this.low[i]! < min) min = this.low[i]!;
    }
    return max > 0 ? { maxLog: Math.log(max / baseline), minLog: Math.log(min / baseline) } : undefined;
  }

  /** Index of the last bar known at time t (close time ≤ t), or -1. */
  indexAt(t: number): number {
    return lastAtOrBefore(this.closeTime, t);
  }

  /** Index of the last bar at or before `closeTime[i] − windowMs` (never after i), or -1. */
  back(i: number, windowMs: number): number {
    return lastAtOrBefore(this.closeTime, this.closeTime[i]! - windowMs, i);
  }

  /** Log return over the window ending at bar i, or undefined if history is too short. */
  ret(i: number, windowMs: number): number | undefined {
    const j = this.back(i, windowMs);
    if (j < 0) return undefined;
    return this.logClose[i]! - this.logClose[j]!;
  }

  /** Realized variance per millisecond over the window ending at bar i. */
  rv(i: number, windowMs: number): number | undefined {
    const j = this.back(i, windowMs);
    if (j < 0 || i - j < 2) return undefined;
    const span = this.closeTime[i]! - this.closeTime[j]!;
    return (this.sumSq[i]! - this.sumSq[j]!) / span;
  }

  /** Realized variance per ms between two times, both ≤ closeTime[i]. */
  rvBetween(i: number, fromT: number, toT: number): number | undefined {
    const a = lastAtOrBefore(this.closeTime, fromT, i);
    const b = lastAtOrBefore(this.closeTime, toT, i);
    if (a < 0 || b <= a) return undefined;
    return (this.sumSq[b]! - this.sumSq[a]!) / (this.closeTime[b]! - this.closeTime[a]!);
  }

  /** Traded volume per millisecond over the window ending at bar i, or undefined if history is too short. */
  volumeRate(i: number, windowMs: number): number | undefined {
    const j = this.back(i, windowMs);
    if (j < 0) return undefined;
    return (this.sumVol[i]! - this.sumVol[j]!) / (this.closeTime[i]! - this.closeTime[j]!);
  }

  /** Volume-weighted close-location imbalance in [-1, 1] over the window (a candle proxy of trade flow). */
  flow(i: number, windowMs: number): number | undefined {
    const j = this.back(i, windowMs);
    if (j < 0) return undefined;
    const v = this.sumVol[i]! - this.sumVol[j]!;
    return v > 0 ? (this.sumFlow[i]! - this.sumFlow[j]!) / v : 0;
  }
}

/** Garman–Klass variance of one bar's open-to-close log return from its range; 0 for a malformed bar. */
export function garmanKlass(bar: Bar): number {
  if (!(bar.high > 0 && bar.low > 0 && bar.open > 0 && bar.close > 0) || bar.high < bar.low) return 0;
  const u = Math.log(bar.high / bar.low);
  const c = Math.log(bar.close / bar.open);
  return Math.max(0, 0.5 * u * u - (2 * Math.LN2 - 1) * c * c);
}

/** Settled funding rates, ascending. Only rates settled at or before t are read. */
export class FundingSeries {
  readonly times: number[] = [];
  readonly rates: number[] = [];

  constructor(points: readonly FundingPoint[] = []) {
    for (const p of points) this.append(p);
  }

  append(p: FundingPoint): void {
    const n = this.times.length;
    if (!Number.isFinite(p.rate)) return;
    if (n > 0 && p.time <= this.times[n - 1]!) return;
    this.times.push(p.time);
    this.rates.push(p.rate);
  }

  /** The latest settled rate and the one before it, as known at time t. */
  at(t: number): { rate: number; previous: number | undefined } | undefined {
    const i = lastAtOrBefore(this.times, t);
    if (i < 0) return undefined;
    return { rate: this.rates[i]!, previous: i > 0 ? this.rates[i - 1] : undefined };
  }
}

/**
 * Open interest (USD, summed over venues) at its sample times, ascending, with prefix sums of the squared log
 * change between samples, so its typical change over a window is known without a loop. Only samples taken at
 * or before t are read.
 */
export class OpenInterestSeries {
  readonly times: number[] = [];
  readonly logUsd: number[] = [];
  /** Prefix sums of the squared log change from the previous sample. */
  readonly sumSq: number[] = [];

  constructor(points: readonly OpenInterestPoint[] = []) {
    for (const p of points) this.append(p);
  }

  append(p: OpenInterestPoint): void {
    const n = this.times.length;
    if (!(p.usd > 0) || !Number.isFinite(p.usd)) return;
    if (n > 0 && p.time <= this.times[n - 1]!) return;
    const l = Math.log(p.usd);
    const d = n > 0 ? l - this.logUsd[n - 1]! : 0;
    this.times.push(p.time);
    this.logUsd.push(l);
    this.sumSq.push((n > 0 ? this.sumSq[n - 1]! : 0) + d * d);
  }

  /**
   * The log change of open interest over `windowMs` ending at the newest sample known at t, and the root mean
   * square of such changes over the `historyMs` before it (the same window scaled from the samples' squared
   * changes per ms). Undefined when the newest sample is older than `maxAgeMs`, no sample lies near the
   * window's start, or the history holds fewer than 8 changes.
   */
  changeAt(
    t: number,
    windowMs: number,
    historyMs: number,
    maxAgeMs: number,
  ): { change: number; typical: number } | undefined {
    const i = lastAtOrBefore(this.times, t);
    if (i < 1 || t - this.times[i]! > maxAgeMs) return undefined;
    const j = lastAtOrBefore(this.times, this.times[i]! - windowMs, i);
    if (j < 0 || this.times[i]! - windowMs - this.times[j]! > maxAgeMs) return undefined;
    const k = Math.max(0, lastAtOrBefore(this.times, this.times[i]! - historyMs, i));
    if (i - k < 8) return undefined;
    const perMs = (this.sumSq[i]! - this.sumSq[k]!) / (this.times[i]! - this.times[k]!);
    const typical = Math.sqrt(perMs * windowMs);
    return { change: this.logUsd[i]! - this.logUsd[j]!, typical };
  }
}
