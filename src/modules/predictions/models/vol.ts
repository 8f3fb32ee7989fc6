import { clamp } from '../math.ts';
import type { BarSeries } from '../features/series.ts';

const H = 60 * 60_000;
const DAY = 24 * H;
/** Realized-variance windows of the HAR-style model: 1 h, 4 h, 24 h, 72 h. */
const VOL_WINDOWS = [H, 4 * H, DAY, 3 * DAY] as const;

/**
 * HAR weights per horizon, fixed a priori (short horizons lean on recent variance, 6 h on the daily and
 * 3-day windows, as in Corsi's HAR-RV). They are not fitted: the conformal layer corrects the overall
 * scale online, and fixed weights cannot overfit the test period.
 */
function harWeights(horizonMs: number): readonly number[] {
  if (horizonMs <= 15 * 60_000) return [0.45, 0.3, 0.15, 0.1];
  if (horizonMs <= H) return [0.35, 0.3, 0.2, 0.15];
  return [0.15, 0.25, 0.35, 0.25];
}

/**
 * Standard deviation of the log return over `horizonMs` after bar i: HAR mix of realized variances times an
 * intraday seasonal factor (the same clock window on each of the previous 7 days relative to their 7-day
 * mean, shrunk half-way to 1). Reads bars 0..i only. Undefined until there is 1 h of history.
 */
export function harSigma(
  s: BarSeries,
  i: number,
  horizonMs: number,
  seasonal = seasonalFactor(s, i, horizonMs),
): number | undefined {
  const w = harWeights(horizonMs);
  let v = 0;
  let wsum = 0;
  for (let k = 0; k < VOL_WINDOWS.length; k++) {
    const rv = s.rv(i, VOL_WINDOWS[k]!);
    if (rv === undefined) continue;
    v += w[k]! * rv;
    wsum += w[k]!;
  }
  if (wsum === 0) return undefined;
  v /= wsum;
  return Math.sqrt(v * horizonMs * seasonal);
}

export function seasonalFactor(s: BarSeries, i: number, horizonMs: number): number {
  const t = s.closeTime[i]!;
  const week = s.rv(i, 7 * DAY);
  if (week === undefined || week <= 0 || t - s.closeTime[0]! < 7 * DAY) return 1;
  let sum = 0;
  let n = 0;
  for (let d = 1; d <= 7; d++) {
    const from = t - d * DAY;
    const rv = s.rvBetween(i, from, from + horizonMs);
    if (rv === undefined) continue;
    sum += rv;
    n++;
  }
  if (n < 4) return 1;
  return clamp(0.5 + (0.5 * (sum / n)) / week, 0.4, 2.5);
}

/** Baseline: RiskMetrics-style EWMA (half-life 1 h of time ≈ λ 0.944 per 5-minute bar). */
export function ewmaSigma(s: BarSeries, i: number, horizonMs: number): number {
  return Math.sqrt(s.ewmaVar[i]! * horizonMs);
}

/** EWMA (half-life 1 h) of the Garman–Klass range variance, per ms, scaled to the horizon. */
export function rangeSigma(s: BarSeries, i: number, horizonMs: number): number {
  return Math.sqrt(s.ewmaRangeVar[i]! * horizonMs);
}

/** The range-based EWMA with a 10-minute half-life (`BarSeries.fastRangeVar`), scaled to the horizon. */
export function fastRangeSigma(s: BarSeries, i: number, horizonMs: number): number {
  return Math.sqrt(s.fastRangeVar[i]! * horizonMs);
}

/** Baseline: unconditional volatility, expanding window of all history up to bar i. */
export function expandingSigma(s: BarSeries, i: number, horizonMs: number): number | undefined {
  if (i < 2) return undefined;
  return Math.sqrt((s.sumSq[i]! / (s.closeTime[i]! - s.closeTime[0]!)) * horizonMs);
}

/**
 * Activity factor for a fast σ: the volume rate of the last 5 minutes against the last 4 hours, clamped to
 * [1/3, 3], as a ratio of variances. Variance follows the rate of trading (more trades, more information
 * arriving), and a burst of volume in the last minutes is news that the hour-long EWMA has only begun to
 * see. 1 while history is short or there was no volume. Chosen on BTC spot 2021 at 15m among windows of
 * 5/10/15 minutes against 1 h/4 h/1 day, shrunk half-way to 1 or not (docs/adr/0006-activity-scaled-sigma.md).
 */
export function activityFactor(s: BarSeries, i: number): number {
  const recent = s.volumeRate(i, 5 * 60_000);
  const base = s.volumeRate(i, 4 * H);
  if (recent === undefined || base === undefined || !(base > 0)) return 1;
  return clamp(recent / base, 1 / 3, 3);
}

/**
 * Market-wide burst factor for a fast σ: over the other symbols of the basket with a bar in the last
 * 15 minutes, the geometric mean of their 10-minute range variance over their 1-hour one (`fastRangeVar` /
 * `ewmaRangeVar`), clamped to [1/3, 3]. Volatility arrives across the market at once, and a burst on the
 * other coins is news about this one that its own hour-long EWMA has not yet seen. 1 without a basket.
 * Chosen on BTC spot 2021 at 15m (docs/adr/0007-basket-burst-and-passed-members.md).
 */
export function basketBurstFactor(basket: readonly BarSeries[], own: BarSeries, t: number): number {
  let logSum = 0;
  let n = 0;
  for (const other of basket) {
    if (other === own) continue;
    const j = other.indexAt(t);
    if (j < 0 || t - other.closeTime[j]! > 15 * 60_000) continue;
    const slow = other.ewmaRangeVar[j]!;
    const fast = other.fastRangeVar[j]!;
    if (!(slow > 0) || !(fast > 0)) continue;
    logSum += Math.log(fast / slow);
    n++;
  }
  return n > 0 ? clamp(Math.exp(logSum / n), 1 / 3, 3) : 1;
}
