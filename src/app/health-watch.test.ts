import { describe, expect, it } from 'vitest';
import { watchHealth } from './health-watch.ts';
import type { Logger } from '../observability/logger.ts';
import { createMetrics } from '../observability/metrics.ts';
import { type ComponentHealth, summarize } from '../shared/readiness.ts';

describe('health watcher', () => {
  it('logs each transition once (warning down, info up), never per sample, and exports the gauges', async () => {
    const lines: Array<[string, string]> = [];
    const logger = {
      warn: (_o: unknown, msg: string) => lines.push(['warn', msg]),
      info: (_o: unknown, msg: string) => lines.push(['info', msg]),
      error: (_o: unknown, msg: string) => lines.push(['error', msg]),
    } as unknown as Logger;
    let market: ComponentHealth = { status: 'ok', details: { snapshotAgeSeconds: 1 } };
    let model: ComponentHealth = { status: 'degraded', reason: 'warming up', expected: true };
    const metrics = createMetrics();
    const watch = watchHealth({
      readiness: async () => summarize({ storage: { status: 'ok' }, market, model }, false),
      logger,
      metrics,
      feedAges: () => [{ venue: 'binance', symbol: 'BTCUSDT', ageSeconds: 3 }],
      intervalMs: 3_600_000,
    });
    try {
      await watch.check(); // the first sample runs at start too: both see the same state
      model = { status: 'ok' };
      await watch.check();
      market = { status: 'degraded', reason: 'binance stale (BTCUSDT)', details: { snapshotAgeSeconds: 40 } };
      for (let i = 0; i < 5; i++) await watch.check();
      market = { status: 'ok', details: { snapshotAgeSeconds: 1 } };
      await watch.check();
      expect(lines).toEqual([
        ['info', 'model warming up'],
        ['info', 'model recovered'],
        ['warn', 'market degraded'],
        ['info', 'market recovered'],
      ]);
      const text = await metrics.registry.metrics();
      expect(text).toContain('meridian_component_status{component="market"} 2');
      expect(text).toContain('meridian_component_status{component="storage"} 2');
      expect(text).toContain('meridian_component_detail{component="market",detail="snapshotAgeSeconds"} 1');
      expect(text).toContain('meridian_market_feed_age_seconds{venue="binance",symbol="BTCUSDT"} 3');
    } finally {
      watch.stop();
    }
  });
});
