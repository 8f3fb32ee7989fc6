import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionsRouteApp } from '../harness/predictions-app.ts';
import type { App } from '../../src/http/types.ts';
import {
  type Bar,
  createMemoryPredictionRepository,
  createPredictionsService,
  type PredictionsMarketPort,
} from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 2, 3);
/** Minutes of 1m history before START: enough for the model's first fit at every horizon during the warm-up. */
const HISTORY = 4 * 24 * 60;

/** Deterministic 1m bars of one symbol up to the clock. */
function fakeMarket(clock: { now(): number }): PredictionsMarketPort {
  const bars: Bar[] = [];
  let p = 60_000;
  for (let i = 0; i < HISTORY + 120; i++) {
    const open = p;
    p *= Math.exp(Math.sin(i * 0.37) * 0.0008 + Math.cos(i * 0.011) * 0.0003);
    bars.push({
      openTime: START - HISTORY * MIN + i * MIN,
      open,
      high: Math.max(open, p) * 1.0002,
      low: Math.min(open, p) * 0.9998,
      close: p,
      volume: 5 + (i % 7),
    });
  }
  const closed = () => bars.filter((b) => b.openTime + MIN <= clock.now());
  return {
    symbols: () => ['BTCUSDT'],
    snapshot: () => ({
      mid: closed().at(-1)!.close,
      bookImbalance: 0,
      tradeImbalance5m: 0,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (_s, _i, count) => closed().slice(-count),
  };
}

async function appFor(service: ReturnType<typeof createPredictionsService>): Promise<App> {
  const app = await predictionsRouteApp(service);
  return app;
}

interface Answer {
  symbol: string;
  horizon: string;
  datapoint: {
    generatedAt: string;
    baseline: number;
    prediction: number;
    quantiles: Record<string, number>;
    backfilled: boolean;
    source: string;
    stale: boolean;
  };
  levels: { level: number; endAbove: number; touch: number }[];
}

describe('GET /api/predictions/probability', () => {
  const clock = manualClock(START);
  const repository = createMemoryPredictionRepository();
  const service = createPredictionsService({
    market: fakeMarket(clock),
    repository,
    clock,
    refreshMs: MIN,
    candleHistory: HISTORY,
  });
  let app: App;

  beforeAll(async () => {
    app = await appFor(service);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 naming the symbol and horizon before the first forecast', async () => {
    const res = await app.inject({
      url: '/api/predictions/probability?symbol=BTCUSDT&horizon=1h&levels=60000',
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json().detail).toContain('BTCUSDT at 1h');
  });

  it('reads both probabilities of each level from the newest datapoint, in the order asked', async () => {
    service.warmUp();
    for (let i = 0; i < 3; i++) {
      await service.refresh();
      clock.advance(MIN);
    }
    const newest = repository.rows.filter((r) => r.horizon === '1h').at(-1)!;
    const q = newest.quantiles;
    const levels = [q.p90!, newest.baseline * 0.98, q.p10!, newest.baseline, q.p50!, newest.baseline * 1.02];
    const res = await app.inject({
      url: `/api/predictions/probability?symbol=btc&horizon=60m&levels=${levels.join(',')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['meridian-normalized']).toContain('symbol');
    expect(res.headers['meridian-source']).toBe('simulated');
    const body = res.json() as Answer;
    expect(body.symbol).toBe('BTCUSDT');
    expect(body.horizon).toBe('1h');
    expect(body.datapoint).toMatchObject({
      generatedAt: new Date(newest.generated_at).toISOString(),
      baseline: newest.baseline,
      prediction: newest.prediction,
      quantiles: newest.quantiles,
      backfilled: false,
      source: 'simulated',
      stale: false,
    });
    expect(body.levels.map((l) => l.level)).toEqual(levels);
    const [at90, down2, at10, atBaseline, atMedian, up2] = body.levels;
    // The published quantiles are met: 10 % of the mass above p90, 90 % above p10, half above the median.
    expect(at90!.endAbove).toBeCloseTo(0.1, 3);
    expect(at10!.endAbove).toBeCloseTo(0.9, 3);
    expect(atMedian!.endAbove).toBeCloseTo(0.5, 3);
    expect(atBaseline!.touch).toBe(1);
    expect(up2!.endAbove).toBeLessThan(at90!.endAbove);
    expect(down2!.endAbove).toBeGreaterThan(at10!.endAbove);
    expect(up2!.touch).toBeCloseTo(Math.min(1, 2 * up2!.endAbove), 3);
    expect(down2!.touch).toBeCloseTo(Math.min(1, 2 * (1 - down2!.endAbove)), 3);
  });

  it('turns stale with the datapoint when refreshes stop', async () => {
    const saved = clock.now();
    clock.advance(5 * MIN);
    try {
      const res = await app.inject({ url: '/api/predictions/probability?symbol=BTCUSDT&levels=60000' });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Answer).datapoint.stale).toBe(true);
      expect(res.headers['meridian-stale']).toBe('true');
    } finally {
      clock.set(saved);
    }
  });

  it.each([
    ['levels=abc', /entry 1 \("abc"\) is not a price > 0/],
    ['levels=0', /entry 1 \("0"\) is not a price > 0/],
    ['levels=-5', /entry 1 \("-5"\) is not a price > 0/],
    ['levels=100,,200', /entry 2 is empty/],
    ['levels=0x10', /is not a price > 0/],
    ['levels=1e999', /is not a price > 0/],
    [`levels=${Array.from({ length: 21 }, (_, k) => 100 + k).join(',')}`, /at most 20 levels, got 21/],
  ])('400 problem naming /query/levels for %s', async (query, message) => {
    const res = await app.inject({ url: `/api/predictions/probability?symbol=BTCUSDT&${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const errors = res.json().errors as { pointer: string; message: string }[];
    expect(errors.every((e) => e.pointer === '/query/levels')).toBe(true);
    expect(errors.map((e) => e.message).join('; ')).toMatch(message);
  });

  it('400 without levels, and for an unsupported symbol with strict', async () => {
    const missing = await app.inject({ url: '/api/predictions/probability?symbol=BTCUSDT' });
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain('levels');
    const strict = await app.inject({
      url: '/api/predictions/probability?symbol=NOPEUSDT&levels=1&strict=true',
    });
    expect(strict.statusCode).toBe(400);
  });

  it('400 naming a query field it does not know (a misspelt one is not silently ignored), here and on /performance', async () => {
    const res = await app.inject({ url: '/api/predictions/probability?symbol=BTCUSDT&levels=1&horizn=6h' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(res.json())).toContain('horizn');
    // The performance report takes no parameters: a filter it does not have is refused, not ignored.
    const performance = await app.inject({ url: '/api/predictions/performance?symbol=BTCUSDT' });
    expect(performance.statusCode).toBe(400);
    expect(performance.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(performance.json())).toContain('symbol');
  });
});
