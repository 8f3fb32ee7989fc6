import { describe, expect, it } from 'vitest';
import type { DerivativesView } from '../modules/derivatives/index.ts';
import { derivativesFeedAges, derivativesHealth } from './health.ts';
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

  it('derivatives: degraded when a venue has no reading within staleMs (dead when none has), one line per turn', async () => {
    const T = Date.UTC(2026, 0, 1);
    const venue = (name: string, at: number) =>
      ({
        venue: name,
        stale: false,
        updatedAt: new Date(at).toISOString(),
      }) as DerivativesView['venues'][number];
    const view = (symbol: string, venues: DerivativesView['venues']) =>
      ({ symbol, venues }) as DerivativesView;
    let now = T;
    const views = [
      view('BTCUSDT', [venue('binance', T), venue('okx', T)]),
      view('ETHUSDT', [venue('binance', T)]),
    ];
    expect(derivativesHealth([], now, 300_000)).toBeUndefined();
    expect(derivativesHealth(views, now, 300_000)).toEqual({
      status: 'ok',
      details: { updateAgeSeconds: 0, staleVenues: 0 },
    });
    // okx stopped answering; binance readings keep coming
    views[0]!.venues[0] = venue('binance', T + 400_000);
    views[1]!.venues[0] = venue('binance', T + 400_000);
    now = T + 400_000;
    expect(derivativesHealth(views, now, 300_000)).toEqual({
      status: 'degraded',
      reason: 'okx stale (BTCUSDT)',
      details: { updateAgeSeconds: 0, staleVenues: 1 },
    });
    // nothing refreshed since (a follower whose leader stopped): every venue stale by its own time
    now = T + 1_000_000;
    const dead = derivativesHealth(views, now, 300_000);
    expect(dead?.status).toBe('degraded');
    expect(dead?.reason).toBe(
      'no fresh derivatives venue for 600 s: binance stale (BTCUSDT, ETHUSDT); okx stale (BTCUSDT)',
    );
    expect(derivativesFeedAges(views, now)).toEqual([
      { venue: 'binance', symbol: 'BTCUSDT', ageSeconds: 600 },
      { venue: 'okx', symbol: 'BTCUSDT', ageSeconds: 1000 },
      { venue: 'binance', symbol: 'ETHUSDT', ageSeconds: 600 },
    ]);

    const lines: Array<[string, string, unknown]> = [];
    const logger = {
      warn: (o: unknown, msg: string) => lines.push(['warn', msg, o]),
      info: (o: unknown, msg: string) => lines.push(['info', msg, o]),
      error: (o: unknown, msg: string) => lines.push(['error', msg, o]),
    } as unknown as Logger;
    const metrics = createMetrics();
    now = T;
    const fresh = [view('BTCUSDT', [venue('binance', T)])];
    const watch = watchHealth({
      readiness: async () => {
        const derivatives = derivativesHealth(fresh, now, 300_000);
        return summarize({ storage: { status: 'ok' }, ...(derivatives ? { derivatives } : {}) }, false);
      },
      logger,
      metrics,
      derivativesFeedAges: () => derivativesFeedAges(fresh, now),
      intervalMs: 3_600_000,
    });
    try {
      await watch.check();
      now = T + 301_000;
      for (let i = 0; i < 3; i++) await watch.check();
      expect(lines).toEqual([
        [
          'warn',
          'derivatives degraded',
          {
            component: 'derivatives',
            status: 'degraded',
            reason: 'no fresh derivatives venue for 301 s: binance stale (BTCUSDT)',
          },
        ],
      ]);
      const text = await metrics.registry.metrics();
      expect(text).toContain('meridian_derivatives_feed_age_seconds{venue="binance",symbol="BTCUSDT"} 301');
      expect(text).toContain('meridian_component_status{component="derivatives"} 1');
    } finally {
      watch.stop();
    }
  });
});
