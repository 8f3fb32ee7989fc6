import type { Datapoint } from '../api/types.ts';

const horizonMs: Record<string, number> = { '15m': 900_000, '1h': 3_600_000, '6h': 21_600_000 };

export interface ForecastPoint {
  /** Seconds since the epoch of the forecast's target time (generatedAt + horizon). */
  time: number;
  /** Seconds since the epoch when it was made, and the price then. */
  origin: number;
  baseline: number;
  median: number;
  p05?: number;
  p10?: number;
  p90?: number;
  p95?: number;
  realized?: number;
  hit?: boolean;
  generatedAt: string;
}

/** Forecast datapoints placed at the time they forecast, oldest first, one per target time (newest wins). */
export function forecastPath(points: readonly Datapoint[]): ForecastPoint[] {
  const byTime = new Map<number, ForecastPoint>();
  for (const p of points) {
    const target = Date.parse(p.generatedAt) + (horizonMs[p.horizon] ?? 0);
    const time = Math.floor(target / 1000);
    byTime.set(time, {
      time,
      origin: Math.floor(Date.parse(p.generatedAt) / 1000),
      baseline: p.baseline,
      median: p.prediction,
      p05: p.quantiles?.p05,
      p10: p.quantiles?.p10,
      p90: p.quantiles?.p90,
      p95: p.quantiles?.p95,
      realized: p.outcome?.realized,
      hit: p.outcome?.hit,
      generatedAt: p.generatedAt,
    });
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** Merges live datapoints into the fetched list (same symbol, horizon and generatedAt = same datapoint). */
export function mergeDatapoints(fetched: readonly Datapoint[], live: readonly Datapoint[]): Datapoint[] {
  const key = (p: Datapoint) => `${p.symbol}|${p.horizon}|${p.generatedAt}`;
  const merged = new Map(fetched.map((p) => [key(p), p]));
  for (const p of live) if (!merged.has(key(p))) merged.set(key(p), p);
  return [...merged.values()].sort((a, b) => Date.parse(a.generatedAt) - Date.parse(b.generatedAt));
}

export const factorNames: Record<string, string> = {
  orderflow: 'Order flow',
  funding: 'Funding',
  macro: 'Macro',
  ai_residual: 'AI residual',
};

/** A time snapped down to the candle grid, so forecast points share the candles' slots on the time axis. */
export const snap = (seconds: number, intervalSeconds: number) =>
  Math.floor(seconds / intervalSeconds) * intervalSeconds;

/** The past forecasts' medians on the candle grid, one per slot (the newest forecast for a slot wins). */
export function trackOnGrid(path: readonly ForecastPoint[], intervalSeconds: number) {
  const bySlot = new Map<number, number>();
  for (const p of path) bySlot.set(snap(p.time, intervalSeconds), p.median);
  return [...bySlot.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
}

/**
 * The newest forecast as a fan from the last candle: each line runs from the price when the forecast was
 * made to the median or a band edge at the time it forecasts. Undefined without quantiles for the bands.
 */
export function fanOf(latest: ForecastPoint | undefined, intervalSeconds: number, lastCandleTime?: number) {
  if (!latest) return undefined;
  const start = Math.max(snap(latest.origin, intervalSeconds), lastCandleTime ?? 0);
  const end = Math.max(snap(latest.time, intervalSeconds), start + intervalSeconds);
  const line = (value: number | undefined) =>
    value === undefined
      ? []
      : [
          { time: start, value: latest.baseline },
          { time: end, value },
        ];
  return {
    median: line(latest.median),
    p05: line(latest.p05),
    p10: line(latest.p10),
    p90: line(latest.p90),
    p95: line(latest.p95),
  };
}
