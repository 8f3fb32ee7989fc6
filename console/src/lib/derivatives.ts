/** The symbol page's derivatives strip: sparkline geometry and the figures shown beside each line. */

export interface SparkPoint {
  time: number;
  value: number;
}

/**
 * An SVG polyline's `points` for a series scaled into width × height (y grows down), the extremes touching
 * the edges; a flat series is drawn through the middle. Empty for fewer than two points (nothing to draw).
 */
export function sparklinePoints(points: readonly SparkPoint[], width: number, height: number): string {
  if (points.length < 2) return '';
  const t0 = points[0]!.time;
  const t1 = points.at(-1)!.time;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    lo = Math.min(lo, p.value);
    hi = Math.max(hi, p.value);
  }
  const x = (t: number) => (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * width);
  const y = (v: number) => (hi === lo ? height / 2 : height - ((v - lo) / (hi - lo)) * height);
  return points.map((p) => `${round(x(p.time))},${round(y(p.value))}`).join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A history answer's points as one series: `pick` returns undefined for a point without that figure. */
export function seriesOf<P extends { time: number }>(
  data: readonly P[] | undefined,
  pick: (p: P) => number | undefined,
): SparkPoint[] {
  const out: SparkPoint[] = [];
  for (const p of data ?? []) {
    const value = pick(p);
    if (value !== undefined && Number.isFinite(value)) out.push({ time: p.time, value });
  }
  return out;
}
