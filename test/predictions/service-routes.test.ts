import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionsRouteApp } from '../harness/predictions-app.ts';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import type { App } from '../../src/http/types.ts';
import {
  type Bar,
  createPredictionsService,
  createKyselyPredictionRepository,
  createMemoryPredictionRepository,
  type PredictionsMarketPort,
  type PredictionsTopics,
} from '../../src/modules/predictions/index.ts';
import { directionalEdge } from '../../src/modules/predictions/service.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 0, 6);
/**
 * Minutes of 1m history before START, all of it held by the service: enough for the model's first fit at every
 * horizon (three days of outcomes, the 6 h ones after 3 d 6 h of bars) during the warm-up — before it, a model's
 * forecasts are not published. No more than that: each test's warm-up replays all of it.
 */
const HISTORY = 3.5 * 24 * 60;

/** A fake market: deterministic 1m random walks for two symbols, closed bars only up to the clock. */
function fakeMarket(clock: { now(): number }): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of ['BTCUSDT', 'ETHUSDT'].entries()) {
    const list: Bar[] = [];
    let p = k ? 3000 : 60000;
    for (let i = 0; i < HISTORY + 24 * 60 + 600; i++) {
      const r = Math.sin(i * 0.37 + k) * 0.0008 + Math.cos(i * 0.011) * 0.0003;
      const open = p;
      p *= Math.exp(r);
      list.push({
        openTime: START - HISTORY * MIN + i * MIN,
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
    snapshot: (s) => {
      const list = bars.get(s)!;
      const last = list.filter((b) => b.openTime + MIN <= clock.now()).at(-1)!;
      return {
        mid: last.close,
        bookImbalance: 0.2,
        tradeImbalance5m: -0.1,
        fundingRate: null,
        basisBps: null,
      };
    },
    recentCandles: (s, _i, count) =>
      bars
        .get(s)!
        .filter((b) => b.openTime + MIN <= clock.now())
        .slice(-count),
  };
}

async function appFor(service: ReturnType<typeof createPredictionsService>): Promise<App> {
  const app = await predictionsRouteApp(service);
  return app;
}

describe('predictions service and routes', () => {
  const clock = manualClock(START);
  const repository = createMemoryPredictionRepository();
  const bus = memoryBus<PredictionsTopics>();
  const published: unknown[] = [];
  const service = createPredictionsService({
    market: fakeMarket(clock),
    repository,
    clock,
    bus,
    refreshMs: MIN,
    candleHistory: HISTORY,
    minIndependentOutcomes: 2,
  });
  let app: App;

  beforeAll(async () => {
    await bus.subscribe(topics.predictionsRefreshed, (p) => published.push(p));
    service.warmUp();
    // 130 refreshes, one a minute: enough for 15m datapoints to be scored.
    for (let i = 0; i < 130; i++) {
      await service.refresh();
      clock.advance(MIN);
    }
    app = await appFor(service);
  });
  afterAll(async () => {
    await app?.close();
    await bus.close();
  });

  it('writes one datapoint per symbol × horizon per refresh, stores it and publishes it', () => {
    expect(repository.rows.length).toBe(130 * 2 * 3);
    expect(published.length).toBe(130);
    expect((published[0] as unknown[]).length).toBe(6);
  });

  it('scores stored datapoints once their horizon has passed (and only then)', () => {
    const scored = repository.rows.filter((r) => r.scored_at !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const r of scored) {
      const h = { '15m': 15, '1h': 60, '6h': 360 }[r.horizon]! * MIN;
      expect(r.scored_at!).toBeGreaterThanOrEqual(r.generated_at + h);
      expect(typeof r.hit).toBe('boolean');
    }
    expect(repository.rows.some((r) => r.horizon === '6h' && r.scored_at !== null)).toBe(false);
  });

  it('GET /api/predictions with from/to: a span of the stored record; bad spans are problems naming the parameter', async () => {
    const first = repository.rows.filter((r) => r.symbol === 'BTCUSDT' && r.horizon === '15m')[0]!;
    const from = first.generated_at;
    const res = await app.inject({
      url: `/api/predictions?symbol=BTCUSDT&horizon=15m&granularity=1m&from=${from}&to=${new Date(from + 9 * MIN).toISOString()}`,
    });
    expect(res.statusCode).toBe(200);
    const times = (res.json().data as Array<{ generatedAt: string }>).map((d) => Date.parse(d.generatedAt));
    expect(times).toEqual(Array.from({ length: 10 }, (_, i) => from + i * MIN));
    const bad = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&from=2025-02-30&to=2025-01-01' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/query/from']);
    const reversed = await app.inject({
      url: `/api/predictions?symbol=BTCUSDT&from=${from + MIN}&to=${from}`,
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors[0]).toMatchObject({
      pointer: '/query/from',
      message: 'must not be after `to`',
    });
  });

  it('every predictions answer names its source and the time of its data, and turns stale when refreshes stop', async () => {
    const urls = [
      '/api/predictions?symbol=BTCUSDT&horizon=1h',
      '/api/predictions/ai-outlook',
      '/api/predictions/performance',
    ];
    const newest = Math.max(...repository.rows.map((r) => r.generated_at));
    for (const url of urls) {
      const res = await app.inject({ url });
      expect(res.headers['meridian-source'], url).toBe('simulated');
      expect(res.headers['meridian-as-of'], url).toBe(new Date(newest).toISOString());
      expect(res.headers['meridian-stale'], url).toBe('false');
    }
    const saved = clock.now();
    clock.advance(3 * MIN);
    try {
      for (const url of urls) expect((await app.inject({ url })).headers['meridian-stale'], url).toBe('true');
    } finally {
      clock.set(saved);
    }
  });

  it('GET /api/predictions: limit 500 → 96, oldest first, spaced by granularity', async () => {
    const res = await app.inject({
      url: '/api/predictions?symbol=BTCUSDT&horizon=15m&granularity=1m&limit=500',
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: { generatedAt: string }[] };
    expect(data.length).toBe(96);
    const times = data.map((d) => Date.parse(d.generatedAt));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(MIN);
    expect(res.headers['meridian-normalized']).toContain('limit=500->96');
    const def = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&horizon=15m' });
    const d15 = (def.json() as { data: { generatedAt: string }[] }).data.map((d) =>
      Date.parse(d.generatedAt),
    );
    expect(d15.length).toBe(9); // 130 minutes of refreshes, one per 15m bucket
    for (let i = 1; i < d15.length; i++)
      expect(Math.floor(d15[i]! / (15 * MIN))).toBeGreaterThan(Math.floor(d15[i - 1]! / (15 * MIN)));
  });

  it.each(['0', '-3', '1.5', 'ten'])('limit=%s is a 400 problem', async (limit) => {
    const res = await app.inject({ url: `/api/predictions?symbol=BTCUSDT&limit=${limit}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('symbol is required', async () => {
    expect((await app.inject({ url: '/api/predictions' })).statusCode).toBe(400);
  });

  it.each([
    ['btc-usdt', '60m', 'BTCUSDT', '1h', 'symbol=btc-usdt->BTCUSDT; horizon=60m->1h'],
    ['ETH/USDT', '5h', 'ETHUSDT', '6h', 'symbol=ETH/USDT->ETHUSDT; horizon=5h->6h'],
    ['BTCUSDT', '15m', 'BTCUSDT', '15m', undefined],
    ['NOPEUSDT', '2m', 'BTCUSDT', '15m', 'symbol=NOPEUSDT->BTCUSDT; horizon=2m->15m'],
  ])('normalizes symbol %s and horizon %s → %s %s', async (symbol, horizon, s, h, header) => {
    const res = await app.inject({
      url: `/api/predictions?symbol=${encodeURIComponent(symbol)}&horizon=${horizon}&limit=2`,
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: { symbol: string; horizon: string }[] };
    expect(data.length).toBe(2);
    for (const d of data) expect([d.symbol, d.horizon]).toEqual([s, h]);
    expect(res.headers['meridian-normalized']).toBe(header);
  });

  it('include=quantiles,outcome,modelVersion adds the extras; the default shape has exactly the documented fields', async () => {
    const plain = await app.inject({
      url: '/api/predictions?symbol=BTCUSDT&horizon=15m&limit=96&granularity=1m',
    });
    const d0 = (plain.json() as { data: Record<string, unknown>[] }).data[0]!;
    expect(Object.keys(d0)).toEqual([
      'symbol',
      'horizon',
      'prediction',
      'baseline',
      'expectedMovePct',
      'confidence',
      'factors',
      'generatedAt',
    ]);
    const res = await app.inject({
      url: '/api/predictions?symbol=BTCUSDT&horizon=15m&limit=96&granularity=1m&include=quantiles,outcome,modelVersion',
    });
    const data = (res.json() as { data: Record<string, unknown>[] }).data;
    const q = data.at(-1)!.quantiles as Record<string, number>;
    expect(Object.keys(q)).toHaveLength(19);
    expect(q.p05! <= q.p50! && q.p50! <= q.p95!).toBe(true);
    expect(data[0]!.outcome).toMatchObject({ hit: expect.any(Boolean), realized: expect.any(Number) });
    expect(data.at(-1)!.outcome).toBeNull();
    expect(data[0]!.modelVersion).toMatch(/^meridian-/);
    const unknown = await app.inject({ url: '/api/predictions?symbol=BTCUSDT&include=everything' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/query/include']);
  });

  it('serves the same bytes until the next refresh', () => {
    const q = { symbol: 'BTCUSDT', horizon: '1h' as const, granularityMs: 15 * MIN, limit: 96 };
    expect(service.predictions(q)).toBe(service.predictions(q));
  });

  it('GET /api/predictions/ai-outlook and /performance', async () => {
    const o = (await app.inject({ url: '/api/predictions/ai-outlook?symbol=ethusdt' })).json() as Record<
      string,
      unknown
    >;
    expect(['bullish', 'bearish', 'neutral']).toContain(o.bias);
    expect(Math.abs(o.score as number)).toBeLessThanOrEqual(1);
    expect(Object.keys(o.horizons as object).sort()).toEqual(['15m', '1h', '6h']);
    expect((o.drivers as { factor: string; reason: string }[]).map((d) => d.factor).sort()).toEqual([
      'ai_residual',
      'funding',
      'macro',
      'orderflow',
    ]);
    // The outlook agrees with the datapoints it summarizes: each horizon's score is the calibrated edge of the
    // latest datapoint in its predicted direction where that direction was earned (0 at or below confidence
    // 0.5, or unearned), so a bias never contradicts the sign of the expected move.
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const view = (await app.inject({ url: `/api/predictions/ai-outlook?symbol=${symbol}` })).json() as {
        horizons: Record<
          string,
          { bias: string; score: number; expectedMovePct: number; directionEarned: boolean }
        >;
      };
      for (const [horizon, h] of Object.entries(view.horizons)) {
        const latest = (
          (
            await app.inject({ url: `/api/predictions?symbol=${symbol}&horizon=${horizon}&limit=1` })
          ).json() as { data: { prediction: number; baseline: number; confidence: number }[] }
        ).data[0]!;
        const edge = Math.sign(latest.prediction - latest.baseline) * Math.max(0, 2 * latest.confidence - 1);
        // Only a direction that passed its evidence test moves the score off 0.
        expect(h.score).toBeCloseTo(h.directionEarned ? edge : 0, 3);
        if (h.bias === 'bullish') expect(h.expectedMovePct).toBeGreaterThan(0);
        if (h.bias === 'bearish') expect(h.expectedMovePct).toBeLessThan(0);
      }
    }
    expect(directionalEdge({ prediction: 99, baseline: 100, confidence: 0.45 })).toBe(0);
    expect(directionalEdge({ prediction: 99, baseline: 100, confidence: 0.6 })).toBeCloseTo(-0.2, 12);
    expect(directionalEdge({ prediction: 101, baseline: 100, confidence: 0.7 })).toBeCloseTo(0.4, 12);
    const all = (await app.inject({ url: '/api/predictions/ai-outlook' })).json() as Record<string, unknown>;
    expect(all.symbol).toBeNull();
    const p = (await app.inject({ url: '/api/predictions/performance' })).json() as {
      data: Record<string, unknown>[];
    };
    const row = p.data.find((r) => r.symbol === 'BTCUSDT' && r.horizon === '15m')!;
    expect(row.count).toBeGreaterThan(50);
    // This service asks for 2 independent outcomes (the default, 30, is checked below): 2 × 15 one-minute datapoints.
    expect(row).toMatchObject({ minSample: 30, sample: 'sufficient' });
    expect(row).toMatchObject({
      hitRate: expect.any(Number),
      hitRateSE: expect.any(Number),
      brier: expect.any(Number),
      crpsSkillVsRandomWalk: expect.any(Number),
      crpsSkillVsReference: expect.any(Number),
      eceEqualMass: expect.any(Number),
      shareFlat: expect.any(Number),
      coverage80: expect.any(Number),
    });
    expect((row.calibration as unknown[]).length).toBe(10);
    expect((row.calibrationEqualMass as unknown[]).length).toBe(10);
    expect(row.coverage80BySigmaTercile).toHaveLength(3);
    // The same figures, recomputed here from the stored record with the definitions in docs/forecasting.md.
    const scored = repository.rows.filter(
      (r) => r.symbol === 'BTCUSDT' && r.horizon === '15m' && r.scored_at !== null,
    );
    expect(row.count).toBe(scored.length);
    const hits = scored.map((r) => (r.hit ? 1 : 0) as number);
    expect(row.hitRate).toBeCloseTo(hits.reduce((a, b) => a + b, 0) / hits.length, 4);
    expect(row.shareFlat).toBeCloseTo(
      scored.filter((r) => r.prediction === r.baseline).length / scored.length,
      4,
    );
    let model = 0;
    let reference = 0;
    for (const r of scored) {
      const y = Math.log(r.realized! / r.baseline);
      const median = Math.log(r.prediction / r.baseline);
      for (const [key, price] of Object.entries(r.quantiles)) {
        const tau = Number(key.slice(1)) / 100;
        const q = Math.log(price / r.baseline);
        const loss = (x: number) => (y >= x ? tau * (y - x) : (1 - tau) * (x - y));
        model += loss(q);
        reference += loss(q - median);
      }
    }
    expect(row.crpsSkillVsReference).toBeCloseTo(1 - model / reference, 4);
    // Every published confidence is at least 0.5 and agrees with the published side.
    for (const r of repository.rows) expect(r.confidence).toBeGreaterThanOrEqual(0.5);
  });
});

describe('fenced writes', () => {
  it('the record refuses a refresh from a term that is no longer current, and stores nothing', async () => {
    const repo = createMemoryPredictionRepository();
    const clock = manualClock(START);
    let current = true;
    const service = createPredictionsService({
      market: fakeMarket(clock),
      repository: repo,
      clock,
      refreshMs: MIN,
      candleHistory: HISTORY,
    });
    await service.start({ job: 'predictions-refresh', term: 7, current: () => current });
    await service.warmedUp();
    const stored = repo.rows.length;
    expect(stored).toBeGreaterThan(0);
    current = false;
    clock.advance(MIN);
    await expect(service.refresh()).rejects.toThrow(StaleLeaderError);
    expect(repo.rows.length).toBe(stored);
    await service.stop();
  });
});

/** Runs `test` on a Kysely predictions repository over a fresh database of `kind`, closed afterwards. */
async function withKyselyRepository(
  kind: Parameters<typeof openTestDatabase>[0],
  test: (repo: ReturnType<typeof createKyselyPredictionRepository>) => Promise<void>,
): Promise<void> {
  const handle = await openTestDatabase(kind);
  try {
    await test(createKyselyPredictionRepository(tablesOf(handle.db)));
  } finally {
    await handle.close();
  }
}

describe.each(dbKinds())('Kysely repository on %s', (kind) => {
  it('stores, scores and reads back datapoints', async () => {
    await withKyselyRepository(kind, async (repo) => {
      const clock = manualClock(START);
      const service = createPredictionsService({
        market: fakeMarket(clock),
        repository: repo,
        clock,
        refreshMs: MIN,
        candleHistory: HISTORY,
      });
      service.warmUp();
      for (let i = 0; i < 17; i++) {
        await service.refresh();
        clock.advance(MIN);
      }
      const rows = await repo.since(0);
      expect(rows.length).toBe(17 * 6);
      expect(rows.filter((r) => r.scored_at !== null).length).toBeGreaterThan(0);
      expect(rows[0]!.factors).toHaveProperty('orderflow');
      // A restarted reader sees the same record.
      const reader = createPredictionsService({
        market: fakeMarket(clock),
        repository: repo,
        clock,
        refreshMs: MIN,
      });
      await reader.load();
      const q = { symbol: 'BTCUSDT', horizon: '15m' as const, granularityMs: MIN, limit: 96 };
      expect(JSON.parse(reader.predictions(q).toString()).data.length).toBe(17);
      expect(JSON.parse(reader.performance().toString()).gaps).toEqual([]);

      // An outage: five refresh points pass with no refresh. The next refresh records the gap explicitly.
      clock.advance(5 * MIN);
      await service.refresh();
      const gaps = await repo.gaps(0);
      expect(gaps).toEqual([
        expect.objectContaining({ from_ms: START + 16 * MIN, to_ms: START + 22 * MIN, missed_points: 5 }),
      ]);
      await reader.load();
      expect(JSON.parse(reader.performance().toString()).gaps).toEqual([
        {
          from: new Date(START + 16 * MIN).toISOString(),
          to: new Date(START + 22 * MIN).toISOString(),
          missedPoints: 5,
        },
      ]);
    });
  }, 60_000);
});

describe.each(dbKinds())('a following reader on %s', (kind) => {
  it('catches up with only what changed, answering as a full load of the record does', async () => {
    await withKyselyRepository(kind, async (repo) => {
      const clock = manualClock(START);
      const options = { market: fakeMarket(clock), clock, refreshMs: MIN, minIndependentOutcomes: 1 };
      const writer = createPredictionsService({ ...options, repository: repo, candleHistory: HISTORY });
      const calls = { since: 0, changedSince: 0 };
      const counted = {
        ...repo,
        since(...a: Parameters<typeof repo.since>) {
          calls.since++;
          return repo.since(...a);
        },
        changedSince(q: Parameters<typeof repo.changedSince>[0]) {
          calls.changedSince++;
          return repo.changedSince(q);
        },
      };
      const follower = createPredictionsService({ ...options, repository: counted });
      writer.warmUp();
      const refresh = async (n: number) => {
        for (let i = 0; i < n; i++) {
          await writer.refresh();
          clock.advance(MIN);
        }
      };
      await refresh(10);
      await follower.load();
      const fullLoad = calls.since;
      for (let round = 0; round < 3; round++) {
        await refresh(9);
        await follower.load();
      }
      expect(calls).toEqual({ since: fullLoad, changedSince: 3 });

      const fresh = createPredictionsService({ ...options, repository: repo });
      await fresh.load();
      for (const symbol of ['BTCUSDT', 'ETHUSDT'])
        for (const horizon of ['15m', '1h', '6h'] as const)
          for (const granularityMs of [MIN, 5 * MIN, 15 * MIN]) {
            const q = { symbol, horizon, granularityMs, limit: 96, outcome: true, quantiles: true };
            expect(follower.predictions(q).toString()).toBe(fresh.predictions(q).toString());
          }
      const performance = JSON.parse(follower.performance().toString());
      expect(performance).toEqual(JSON.parse(fresh.performance().toString()));
      expect(performance.data.find((d: { horizon: string }) => d.horizon === '15m').count).toBeGreaterThan(
        10,
      );
      expect(follower.latest()).toEqual(fresh.latest());
    });
  }, 60_000);
});

describe('track record sample size', () => {
  it('withholds the figures below 30 independent outcomes and says so', async () => {
    const clock = manualClock(START);
    const repository = createMemoryPredictionRepository();
    const service = createPredictionsService({
      market: fakeMarket(clock),
      repository,
      clock,
      refreshMs: MIN,
      candleHistory: HISTORY,
    });
    service.warmUp();
    for (let i = 0; i < 40; i++) {
      await service.refresh();
      clock.advance(MIN);
    }
    const report = JSON.parse(service.performance().toString()) as { data: Record<string, unknown>[] };
    const row = report.data.find((r) => r.symbol === 'BTCUSDT' && r.horizon === '15m')!;
    const scored = repository.rows.filter(
      (r) => r.symbol === 'BTCUSDT' && r.horizon === '15m' && r.scored_at !== null,
    );
    expect(scored.length).toBeGreaterThan(0);
    expect(row).toEqual({
      symbol: 'BTCUSDT',
      horizon: '15m',
      count: scored.length,
      minSample: 450,
      sample: 'insufficient',
      // The fitted references are held to the same bar: their own counts, and why no figures.
      references: {
        garch: {
          available: false,
          count: scored.length,
          reason: `${scored.length} of the 450 scored datapoints needed carry a GARCH(1,1) forecast`,
        },
        har_rv: {
          available: false,
          count: scored.length,
          reason: `${scored.length} of the 450 scored datapoints needed carry a HAR-RV forecast`,
        },
      },
      from: expect.any(String),
      to: expect.any(String),
    });
  });
});
