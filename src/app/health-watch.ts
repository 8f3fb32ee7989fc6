import { Gauge } from 'prom-client';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import type { ComponentHealth, ReadinessReport } from '../shared/readiness.ts';

const level: Record<ComponentHealth['status'], number> = { ok: 2, degraded: 1, down: 0 };

/**
 * Watches the process's readiness every `intervalMs`: one warning line when a component turns degraded or
 * down (with the reason), one info line when it recovers — transitions only, never a line per retry — and
 * Prometheus gauges: `meridian_component_status{component}` (2 ok, 1 degraded, 0 down) and
 * `meridian_component_detail{component,detail}` for each figure behind a status (model refresh age, indexer
 * head and lag, market snapshot age, stale venue count), `meridian_market_feed_age_seconds{venue,symbol}` and
 * `meridian_derivatives_feed_age_seconds{venue,symbol}`.
 */
export function watchHealth(deps: {
  readiness(): Promise<ReadinessReport>;
  logger: Logger;
  metrics: Pick<Metrics, 'registry'>;
  /** Age of each venue's feed per symbol (seconds since its last book or trade update), sampled with the rest. */
  feedAges?: () => Array<{ venue: string; symbol: string; ageSeconds: number | null }>;
  /** Age of each derivatives venue's last reading per symbol, sampled with the rest. */
  derivativesFeedAges?: () => Array<{ venue: string; symbol: string; ageSeconds: number }>;
  intervalMs?: number;
}): { check(): Promise<void>; stop(): Promise<void> } {
  const statusGauge = new Gauge({
    name: 'meridian_component_status',
    help: 'Health of each component as /readyz reports it: 2 ok, 1 degraded, 0 down',
    labelNames: ['component'] as const,
    registers: [deps.metrics.registry],
  });
  const detailGauge = new Gauge({
    name: 'meridian_component_detail',
    help: 'Figures behind a component status (ages in seconds, lags in blocks)',
    labelNames: ['component', 'detail'] as const,
    registers: [deps.metrics.registry],
  });
  const feedAgeGauge = new Gauge({
    name: 'meridian_market_feed_age_seconds',
    help: 'Seconds since the last book or trade update of a venue for a symbol (absent until its first update)',
    labelNames: ['venue', 'symbol'] as const,
    registers: [deps.metrics.registry],
  });
  const derivativesAgeGauge = new Gauge({
    name: 'meridian_derivatives_feed_age_seconds',
    help: 'Seconds since the last reading of a derivatives venue for a symbol (absent until its first reading)',
    labelNames: ['venue', 'symbol'] as const,
    registers: [deps.metrics.registry],
  });
  const last = new Map<string, ComponentHealth['status']>();

  async function check(): Promise<void> {
    for (const { venue, symbol, ageSeconds } of deps.feedAges?.() ?? [])
      if (ageSeconds !== null) feedAgeGauge.set({ venue, symbol }, ageSeconds);
    for (const { venue, symbol, ageSeconds } of deps.derivativesFeedAges?.() ?? [])
      derivativesAgeGauge.set({ venue, symbol }, ageSeconds);
    const report = await deps.readiness();
    for (const [name, c] of Object.entries(report.components)) {
      statusGauge.set({ component: name }, level[c.status]);
      for (const [detail, value] of Object.entries(c.details ?? {}))
        if (typeof value === 'number') detailGauge.set({ component: name, detail }, value);
      const before = last.get(name);
      if (before === c.status) continue;
      last.set(name, c.status);
      if (c.status !== 'ok') {
        const line = { component: name, status: c.status, reason: c.reason };
        if (c.expected) deps.logger.info(line, `${name} ${c.reason ?? c.status}`);
        else deps.logger.warn(line, `${name} ${c.status}`);
      } else if (before !== undefined)
        deps.logger.info({ component: name, was: before }, `${name} recovered`);
    }
  }

  const watch = periodicJob({
    name: 'health-watch',
    everyMs: deps.intervalMs ?? 10_000,
    run: check,
    log: deps.logger,
  });
  watch.start();
  void watch.runNow();
  return { check, stop: () => watch.stop() };
}
