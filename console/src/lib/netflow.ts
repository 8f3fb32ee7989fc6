import type { Flow } from '../api/types.ts';

export interface NetflowSeries {
  exchange: string;
  /** Hourly buckets, oldest first: seconds since the epoch and the cumulative netflow (in − out) in USD. */
  points: { time: number; value: number }[];
  totalUsd: number;
}

/**
 * Cumulative netflow per exchange (deposits count in, withdrawals out; internal moves and flows without a
 * USD value are left out), bucketed so the chart has a readable number of points whatever the span.
 */
export function netflowByExchange(flows: readonly Flow[], bucketSeconds = bucketFor(flows)): NetflowSeries[] {
  const bucketMs = bucketSeconds * 1000;
  const buckets = new Map<string, Map<number, number>>();
  for (const flow of flows) {
    if (flow.usdValue === null || flow.direction === 'internal') continue;
    const hour = (Math.floor(flow.timestamp / bucketMs) * bucketMs) / 1000;
    const signed = flow.direction === 'deposit' ? flow.usdValue : -flow.usdValue;
    const perHour = buckets.get(flow.exchange) ?? new Map<number, number>();
    perHour.set(hour, (perHour.get(hour) ?? 0) + signed);
    buckets.set(flow.exchange, perHour);
  }
  return [...buckets.entries()]
    .map(([exchange, perHour]) => {
      let running = 0;
      const points = [...perHour.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([time, value]) => {
          running += value;
          return { time, value: Math.round(running * 100) / 100 };
        });
      return { exchange, points, totalUsd: running };
    })
    .sort((a, b) => Math.abs(b.totalUsd) - Math.abs(a.totalUsd));
}

/** 1 min, 5 min, 15 min or 1 h buckets: the smallest that keeps the span under ~120 points. */
export function bucketFor(flows: readonly Pick<Flow, 'timestamp'>[]): number {
  if (flows.length < 2) return 3600;
  const times = flows.map((f) => f.timestamp);
  const spanSeconds = (Math.max(...times) - Math.min(...times)) / 1000;
  return [60, 300, 900].find((b) => spanSeconds / b <= 120) ?? 3600;
}
