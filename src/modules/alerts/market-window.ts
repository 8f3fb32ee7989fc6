/**
 * Per symbol, the merged 1-minute bars of the last day (from `market.candle` and a start-up backfill) and the
 * bar in progress (from `market.snapshot`): what volume and change_pct rules read.
 *
 * - Quote volume over a window W: the closed bars opened in (current bar − W, current bar) plus the bar in
 *   progress — W of trading at minute resolution.
 * - Change over W: 100 × (price − reference) / reference, the reference being the close of the bar that was
 *   in progress W ago. Unknown (no value, no firing) until that bar is known.
 */
const MINUTE = 60_000;
const KEEP_MS = 86_400_000 + 5 * MINUTE;

export interface MinuteBar {
  openTime: number;
  close: number;
  quoteVolume: number;
}

interface SymbolBars {
  closed: Map<number, MinuteBar>;
  open: MinuteBar | undefined;
  /** Closed-bar sums per window, valid for `sumsFor` (the current bar's open time). */
  sums: Map<number, number>;
  sumsFor: number;
}

export class MarketWindows {
  private readonly symbols = new Map<string, SymbolBars>();

  private of(symbol: string): SymbolBars {
    let s = this.symbols.get(symbol);
    if (!s) {
      s = { closed: new Map(), open: undefined, sums: new Map(), sumsFor: Number.NaN };
      this.symbols.set(symbol, s);
    }
    return s;
  }

  addClosed(symbol: string, bar: MinuteBar): void {
    const s = this.of(symbol);
    const previous = s.closed.get(bar.openTime);
    s.closed.set(bar.openTime, bar);
    // Cached window sums that cover this bar take it in (a late bar, or a correction of one).
    for (const [windowMs, sum] of s.sums)
      if (bar.openTime >= s.sumsFor - windowMs + MINUTE && bar.openTime < s.sumsFor)
        s.sums.set(windowMs, sum + bar.quoteVolume - (previous?.quoteVolume ?? 0));
    // Pruned a day at a time: a scan of the map per closed bar would cost more than the bars it frees.
    if (s.closed.size > 2 * (KEEP_MS / MINUTE)) {
      const cutoff = bar.openTime - KEEP_MS;
      for (const t of s.closed.keys()) if (t < cutoff) s.closed.delete(t);
    }
  }

  setOpen(symbol: string, bar: MinuteBar): void {
    this.of(symbol).open = bar;
  }

  /** Bars known for a symbol (backfill decisions, tests). */
  closedCount(symbol: string): number {
    return this.symbols.get(symbol)?.closed.size ?? 0;
  }

  private currentOpenTime(s: SymbolBars, atMs: number): number {
    return s.open?.openTime ?? Math.floor(atMs / MINUTE) * MINUTE;
  }

  quoteVolume(symbol: string, windowMs: number, atMs: number): number | undefined {
    const s = this.symbols.get(symbol);
    if (!s) return undefined;
    const current = this.currentOpenTime(s, atMs);
    if (s.sumsFor !== current) this.slide(s, current);
    let closed = s.sums.get(windowMs);
    if (closed === undefined) {
      closed = 0;
      for (let t = current - windowMs + MINUTE; t < current; t += MINUTE)
        closed += s.closed.get(t)?.quoteVolume ?? 0;
      s.sums.set(windowMs, closed);
    }
    const open = s.open && s.open.openTime === current ? s.open.quoteVolume : 0;
    return closed + open;
  }

  /**
   * Moves the cached window sums to a new current bar: the bars that entered the windows are added and the
   * ones that left subtracted (a few map reads a minute instead of re-adding a day of bars); a jump of more
   * than a few minutes recomputes.
   */
  private slide(s: SymbolBars, current: number): void {
    const from = s.sumsFor;
    s.sumsFor = current;
    if (!(current > from && current - from <= 5 * MINUTE)) {
      s.sums.clear();
      return;
    }
    const qv = (t: number) => s.closed.get(t)?.quoteVolume ?? 0;
    for (const [windowMs, sum] of s.sums) {
      let next = sum;
      for (let t = from; t < current; t += MINUTE) next += qv(t) - qv(t - windowMs + MINUTE);
      s.sums.set(windowMs, next);
    }
  }

  changePct(symbol: string, windowMs: number, price: number, atMs: number): number | undefined {
    const s = this.symbols.get(symbol);
    if (!s) return undefined;
    const refTime = Math.floor((atMs - windowMs) / MINUTE) * MINUTE;
    const ref = s.closed.get(refTime)?.close ?? s.closed.get(refTime - MINUTE)?.close;
    if (ref === undefined || !(ref > 0)) return undefined;
    return (100 * (price - ref)) / ref;
  }
}
