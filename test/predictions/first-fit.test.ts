import { afterAll, describe, expect, it } from 'vitest';
import { predictionsRouteApp } from '../harness/predictions-app.ts';
import { modelHealth } from '../../src/app/health.ts';
import {
  type Bar,
  type PredictionsMarketPort,
  createMemoryPredictionRepository,
  createPredictionsService,
} from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 0, 6);
/** The market's working window (3 days and 2 hours): enough for the first fit at 15m and 1h, not at 6h. */
const WINDOW_MINUTES = 3 * 24 * 60 + 120;

/** Deterministic 1m bars for two symbols: the working window before START and 8 hours after it. */
function market(clock: { now(): number }): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of ['BTCUSDT', 'ETHUSDT'].entries()) {
    const list: Bar[] = [];
    let p = k ? 3000 : 60000;
    for (let i = 0; i < WINDOW_MINUTES + 8 * 60; i++) {
      const open = p;
      p *= Math.exp(Math.sin(i * 0.37 + k) * 0.0008 + Math.cos(i * 0.011) * 0.0003);
      list.push({
        openTime: START - WINDOW_MINUTES * MIN + i * MIN,
        open,
        high: Math.max(open, p),
        low: Math.min(open, p),
        close: p,
        volume: 5 + (i % 7),
      });
    }
    bars.set(sym, list);
  }
  return {
    symbols: () => ['BTCUSDT', 'ETHUSDT'],
    snapshot: () => ({
      mid: null,
      bookImbalance: null,
      tradeImbalance5m: null,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (s, _i, count) =>
      bars
        .get(s)!
        .filter((b) => b.openTime + MIN <= clock.now())
        .slice(-count),
  };
}

/**
 * What a forecast made before the model's first fit looks like: the baseline at confidence 0.5 with the
 * Gaussian quantiles of an empty conformal layer. A fitted model publishes a flat forecast too when its
 * direction calibrator rates neither side above 0.5, but with its conformal layer's quantiles.
 */
const placeholder = (r: {
  prediction: number;
  baseline: number;
  confidence: number;
  sigma: number;
  quantiles: Record<string, number>;
}) =>
  r.prediction === r.baseline &&
  r.confidence === 0.5 &&
  Math.abs(Math.log(r.quantiles.p90! / r.baseline) / (1.2816 * r.sigma) - 1) < 1e-3;

describe("live forecasts before the model's first fit", () => {
  const clock = manualClock(START);
  const repository = createMemoryPredictionRepository();
  const service = createPredictionsService({
    market: market(clock),
    repository,
    clock,
    refreshMs: MIN,
    candleHistory: WINDOW_MINUTES,
  });
  afterAll(() => service.stop());

  it('are absent (not stored, published, scored nor in the ledger) while the answer says the model is warming up; real ones follow the fit', async () => {
    await service.start();
    await service.warmedUp();
    const app = await predictionsRouteApp(service);
    try {
      // After the warm-up over the 3-day window, 15m and 1h have made their first fit; 6h has not.
      expect(service.warming('BTCUSDT', '15m')).toBe(false);
      expect(service.warming('BTCUSDT', '6h')).toBe(true);
      expect(service.status().unfitted).toBe(2);
      const health = modelHealth(service.status(), MIN, clock.now())!;
      expect(health.status).toBe('ok');
      expect(health.details).toMatchObject({ horizonsWarmingUp: 2 });

      const published: string[] = [];
      for (let m = 0; m < 60; m++) {
        clock.advance(MIN);
        published.push(...(await service.refresh()).map((r) => r.horizon));
      }
      expect(new Set(published)).toEqual(new Set(['15m', '1h']));
      expect(repository.rows.some((r) => r.horizon === '6h')).toBe(false);
      expect(repository.rows.filter(placeholder)).toEqual([]);
      const ledger = await service.ledger({
        afterSequence: 0,
        from: 0,
        to: Number.MAX_SAFE_INTEGER,
        limit: 1000,
      });
      expect(ledger.entries.length).toBe(repository.rows.length);
      expect(ledger.entries.some((e) => e.horizon === '6h')).toBe(false);

      const page = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&horizon=6h' });
      expect(page.statusCode).toBe(200);
      expect(page.json().data).toEqual([]);
      expect(page.headers['meridian-backfilling']).toBe('true');
      const fitted = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&horizon=1h' });
      expect(fitted.json().data.length).toBeGreaterThan(0);
      expect(fitted.headers['meridian-backfilling']).toBeUndefined();
      const probability = await app.inject({
        url: '/api/predictions/probability?symbol=BTCUSDT&horizon=6h&levels=60000',
      });
      expect(probability.statusCode).toBe(503);
      expect(probability.json().detail).toMatch(/warming up/);
      const outlook = await app.inject({ url: '/api/predictions/ai-outlook?symbol=BTCUSDT' });
      expect(Object.keys(outlook.json().horizons)).toEqual(['15m', '1h']);
      expect(outlook.headers['meridian-backfilling']).toBe('true');

      // The model keeps learning from the forecasts it did not publish: 6h makes its first fit within hours.
      let minutes = 60;
      while (service.warming('BTCUSDT', '6h') && minutes < 7 * 60) {
        clock.advance(MIN);
        await service.refresh();
        minutes++;
      }
      expect(service.warming('BTCUSDT', '6h')).toBe(false);
      expect(service.status().unfitted).toBe(0);
      clock.advance(MIN);
      const rows = await service.refresh();
      expect(rows.filter((r) => r.horizon === '6h')).toHaveLength(2);
      expect(rows.filter(placeholder)).toEqual([]);
      const after = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&horizon=6h' });
      expect(after.json().data.length).toBeGreaterThan(0);
      expect(after.headers['meridian-backfilling']).toBeUndefined();
      // Nothing was scored that was not stored: every scored row is a stored one.
      const scored = repository.rows.filter((r) => r.scored_at !== null);
      expect(scored.length).toBeGreaterThan(0);
      expect(scored.every((r) => r.horizon !== '6h' || r.generated_at > START + 60 * MIN)).toBe(true);
    } finally {
      await app.close();
    }
  }, 120_000);
});
