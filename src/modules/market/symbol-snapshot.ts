import { type Candle, mergeVenueCandles } from './candles.ts';
import { consolidate } from './consolidate.ts';
import type { SymbolState } from './symbol-state.ts';
import type { MarketSnapshot, VenueView } from './types.ts';

/** A symbol's merged snapshot, computed on the engine's tick from what it holds (its books, bars and flow). */

export function computeSnapshot(
  s: SymbolState,
  now: number,
  /** The engine's options: venue staleness, outlier band, default slippage notional. */
  options: { staleMs: number; outlierBps: number; notional: number },
): MarketSnapshot {
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
      staleMs: options.staleMs,
      outlierBps: options.outlierBps,
      notional: options.notional,
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
  const openMinute = mergedOpenMinute(s);
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
export function mergedOpenMinute(s: SymbolState): Candle | undefined {
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
