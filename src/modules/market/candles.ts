/**
 * Candles: the one OHLCV shape used by storage, the API, the replay source and the backtester.
 * `openTime` is the interval's open time in ms since the epoch (UTC); a candle covers
 * [openTime, openTime + interval).
 */
export interface Candle {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base-currency volume. */
  volume: number;
  /** Quote-currency volume (USD for USDT pairs). Estimated as volume × (o+h+l+c)/4 when a file has none. */
  quoteVolume: number;
}

/** Start of the interval containing `ms` (UTC; days start at 00:00 UTC). */
export const floorTo = (ms: number, intervalMs: number): number => Math.floor(ms / intervalMs) * intervalMs;

/** Typical-price estimate of quote volume, for sources that only give base volume. */
export const estimateQuoteVolume = (o: number, h: number, l: number, c: number, v: number): number =>
  (v * (o + h + l + c)) / 4;

export interface ResampleOptions {
  /**
   * Drop output bars for which some input bars are missing (a gap inside the bucket). Default false: a
   * partial bucket is emitted from the bars that exist — never filled in.
   */
  requireComplete?: boolean;
  /** Interval of the input, needed for `requireComplete`. Inferred from the two first bars otherwise. */
  fromMs?: number;
}

/**
 * Resamples candles (oldest first) to a coarser interval: first open, max high, min low, last close,
 * summed volumes. Buckets with no input bars produce no output — gaps stay gaps.
 */
export function resample(candles: readonly Candle[], toMs: number, options: ResampleOptions = {}): Candle[] {
  const out: Candle[] = [];
  const fromMs = options.fromMs ?? inferIntervalMs(candles);
  const expected = fromMs ? Math.round(toMs / fromMs) : 0;
  let current: Candle | undefined;
  let count = 0;
  const flush = () => {
    if (current && (!options.requireComplete || count === expected)) out.push(current);
  };
  for (const c of candles) {
    const bucket = floorTo(c.openTime, toMs);
    if (current === undefined || bucket !== current.openTime) {
      flush();
      current = { ...c, openTime: bucket };
      count = 1;
      continue;
    }
    if (c.high > current.high) current.high = c.high;
    if (c.low < current.low) current.low = c.low;
    current.close = c.close;
    current.volume += c.volume;
    current.quoteVolume += c.quoteVolume;
    count++;
  }
  flush();
  return out;
}

/** The most common spacing between consecutive bars (0 when fewer than two). */
function inferIntervalMs(candles: readonly Candle[]): number {
  const counts = new Map<number, number>();
  const n = Math.min(candles.length, 200);
  for (let i = 1; i < n; i++) {
    const d = candles[i]!.openTime - candles[i - 1]!.openTime;
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [d, c] of counts) {
    if (c > bestCount) {
      best = d;
      bestCount = c;
    }
  }
  return best;
}

export interface Gap {
  /** Open time of the first missing bar. */
  from: number;
  /** Open time of the next present bar. */
  to: number;
  missingBars: number;
}

/** Missing bars in a series (oldest first) of the given interval. */
export function findGaps(candles: readonly Candle[], intervalMs: number): Gap[] {
  const gaps: Gap[] = [];
  for (let i = 1; i < candles.length; i++) {
    const prev = candles[i - 1]!.openTime;
    const next = candles[i]!.openTime;
    if (next - prev > intervalMs) {
      gaps.push({
        from: prev + intervalMs,
        to: next,
        missingBars: Math.round((next - prev) / intervalMs) - 1,
      });
    }
  }
  return gaps;
}

/** Merges the same bucket's candles from several venues: price fields volume-weighted where possible. */
export function mergeVenueCandles(candles: readonly Candle[]): Candle | undefined {
  if (candles.length === 0) return undefined;
  if (candles.length === 1) return { ...candles[0]! };
  let volume = 0;
  let quoteVolume = 0;
  let wOpen = 0;
  let wClose = 0;
  let wHigh = 0;
  let wLow = 0;
  for (const c of candles) {
    volume += c.volume;
    quoteVolume += c.quoteVolume;
  }
  const weights = candles.map((c) => (volume > 0 ? c.volume / volume : 1 / candles.length));
  candles.forEach((c, i) => {
    const w = weights[i]!;
    wOpen += w * c.open;
    wClose += w * c.close;
    wHigh += w * c.high;
    wLow += w * c.low;
  });
  const high = Math.max(wHigh, wOpen, wClose);
  const low = Math.min(wLow, wOpen, wClose);
  return { openTime: candles[0]!.openTime, open: wOpen, high, low, close: wClose, volume, quoteVolume };
}

/** Two oldest-first candle lists as one, oldest first; where both hold a bucket, `preferred`'s bar wins. */
export function mergeByOpenTime(other: readonly Candle[], preferred: readonly Candle[]): Candle[] {
  if (preferred.length === 0) return [...other];
  if (other.length === 0) return [...preferred];
  const out: Candle[] = [];
  let i = 0;
  let j = 0;
  while (i < other.length || j < preferred.length) {
    const a = other[i];
    const b = preferred[j];
    if (b === undefined || (a !== undefined && a.openTime < b.openTime)) {
      out.push(a!);
      i++;
    } else {
      if (a !== undefined && a.openTime === b.openTime) i++;
      out.push(b);
      j++;
    }
  }
  return out;
}
