import type { NetflowPoint } from '../api/types.ts';

export interface NetflowView {
  /** Hourly net (in − out, USD) per bucket, seconds since the epoch; `partial` when the stored flows do not cover it. */
  bars: { time: number; value: number; partial: boolean }[];
  /** Running sum of the bars. */
  cumulative: { time: number; value: number }[];
  inflowUsd: number;
  outflowUsd: number;
  netflowUsd: number;
  flows: number;
  /** Flows without a USD value (not in the sums). */
  unpriced: number;
  /** Buckets marked as gaps by the server. */
  partial: number;
}

const cents = (v: number) => Math.round(v * 100) / 100;

/** The netflow series as the chart draws it: per-bucket bars, their running sum and the window's totals. */
export function netflowView(points: readonly NetflowPoint[]): NetflowView {
  let running = 0;
  const view: NetflowView = {
    bars: [],
    cumulative: [],
    inflowUsd: 0,
    outflowUsd: 0,
    netflowUsd: 0,
    flows: 0,
    unpriced: 0,
    partial: 0,
  };
  for (const p of points) {
    const time = p.timestamp / 1000;
    running += p.netflowUsd;
    view.bars.push({ time, value: p.netflowUsd, partial: p.gap });
    view.cumulative.push({ time, value: cents(running) });
    view.inflowUsd += p.inflowUsd;
    view.outflowUsd += p.outflowUsd;
    view.flows += p.flows;
    view.unpriced += p.unpriced;
    if (p.gap) view.partial += 1;
  }
  view.inflowUsd = cents(view.inflowUsd);
  view.outflowUsd = cents(view.outflowUsd);
  view.netflowUsd = cents(running);
  return view;
}
