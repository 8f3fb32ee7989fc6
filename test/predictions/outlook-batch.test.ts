import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionsRouteApp } from '../harness/predictions-app.ts';
import { MAX_OUTLOOK_SYMBOLS } from '../../src/http/routes/predictions-outlook.schemas.ts';
import type { App } from '../../src/http/types.ts';
import {
  type Bar,
  createMemoryPredictionRepository,
  createPredictionsService,
  type PredictionsMarketPort,
} from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 0, 6);
/** Minutes of 1m history before START: enough for the model's first fit at every horizon during the warm-up. */
const HISTORY = 4 * 24 * 60;
const SERVED = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];

/** A fake market: deterministic 1m walks for three symbols, closed bars only up to the clock. */
function fakeMarket(clock: { now(): number }): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of SERVED.entries()) {
    const list: Bar[] = [];
    let p = [60000, 3000, 150][k]!;
    for (let i = 0; i < HISTORY + 10; i++) {
      const open = p;
      p *= Math.exp(Math.sin(i * 0.37 + k) * 0.0008 + Math.cos(i * 0.011) * 0.0003);
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
  const closed = (s: string) => bars.get(s)!.filter((b) => b.openTime + MIN <= clock.now());
  return {
    symbols: () => SERVED,
    snapshot: (s) => ({
      mid: closed(s).at(-1)!.close,
      bookImbalance: 0.2,
      tradeImbalance5m: -0.1,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (s, _i, count) => closed(s).slice(-count),
  };
}

interface Entry {
  requested: string;
  symbol: string | null;
  source?: string;
  asOf?: string | null;
  stale?: boolean;
  backfilling?: boolean;
  outlook?: Record<string, unknown>;
  error?: { status: number; code: string; title: string; detail: string };
}

describe('GET /api/predictions/ai-outlook?symbols= (batch)', () => {
  const clock = manualClock(START);
  const service = createPredictionsService({
    market: fakeMarket(clock),
    repository: createMemoryPredictionRepository(),
    clock,
    refreshMs: MIN,
    candleHistory: HISTORY,
  });
  let app: App;

  beforeAll(async () => {
    service.warmUp();
    for (let i = 0; i < 3; i++) {
      await service.refresh();
      clock.advance(MIN);
    }
    app = await predictionsRouteApp(service);
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string) => app.inject({ url });

  it('answers each symbol in the order given, with the same outlook as the one-symbol form and its provenance', async () => {
    const res = await get('/api/predictions/ai-outlook?symbols=eth-usdt,BTCUSDT,ETHUSDT');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['meridian-source']).toBe('simulated');
    expect(res.headers['meridian-normalized']).toBe('symbols=eth-usdt->ETHUSDT');
    const { data } = res.json() as { data: Entry[] };
    // ETHUSDT twice (two spellings): answered once, where it first appears.
    expect(data.map((e) => [e.requested, e.symbol])).toEqual([
      ['eth-usdt', 'ETHUSDT'],
      ['BTCUSDT', 'BTCUSDT'],
    ]);
    for (const entry of data) {
      const single = (await get(`/api/predictions/ai-outlook?symbol=${entry.symbol}`)).json();
      expect(entry.outlook).toEqual(single);
      expect(entry).toMatchObject({ source: 'simulated', stale: false, backfilling: false });
      expect(entry.asOf).toBe(new Date(clock.now() - MIN).toISOString());
    }
  });

  it('says per symbol when its data is stale', async () => {
    const saved = clock.now();
    clock.advance(3 * MIN);
    try {
      const { data } = (await get('/api/predictions/ai-outlook?symbols=BTCUSDT')).json() as { data: Entry[] };
      expect(data[0]!.stale).toBe(true);
    } finally {
      clock.set(saved);
    }
  });

  it('gives an unsupported symbol its own error entry, the others still answered', async () => {
    const res = await get('/api/predictions/ai-outlook?symbols=BTCUSDT,NOPEUSDT,SOLUSDT');
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: Entry[] };
    expect(data.map((e) => e.symbol)).toEqual(['BTCUSDT', null, 'SOLUSDT']);
    expect(data[1]).toEqual({
      requested: 'NOPEUSDT',
      symbol: null,
      error: {
        status: 400,
        code: 'unsupported_symbol',
        title: 'The symbol is not supported',
        detail: expect.stringContaining('"NOPEUSDT"'),
      },
    });
    expect(data[2]!.outlook).toMatchObject({ symbol: 'SOLUSDT' });
  });

  it('with strict, an unsupported symbol is a 400 problem naming it', async () => {
    const res = await get('/api/predictions/ai-outlook?symbols=BTCUSDT,NOPEUSDT&strict=true');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const problem = res.json() as { code: string; detail: string; errors: { pointer: string }[] };
    expect(problem.code).toBe('unsupported_symbol');
    expect(problem.detail).toContain('"NOPEUSDT"');
    expect(problem.errors[0]!.pointer).toBe('/query/symbols');
  });

  it(`refuses more than ${MAX_OUTLOOK_SYMBOLS} symbols, an over-long entry, no symbol, and symbol with symbols`, async () => {
    const many = Array.from({ length: MAX_OUTLOOK_SYMBOLS + 1 }, (_, i) => `S${i}USDT`).join(',');
    const cases: Array<[string, RegExp]> = [
      [
        `symbols=${many}`,
        new RegExp(`names ${MAX_OUTLOOK_SYMBOLS + 1} symbols; at most ${MAX_OUTLOOK_SYMBOLS}`),
      ],
      [`symbols=BTCUSDT,${'X'.repeat(41)}`, /longer than 40 characters/],
      ['symbols=,,', /names no symbol/],
      ['symbols=BTCUSDT&symbol=ETHUSDT', /either `symbol` or `symbols`/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/predictions/ai-outlook?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type'], query).toMatch(/application\/problem\+json/);
      const problem = res.json() as { code: string; errors: { pointer: string; message: string }[] };
      expect(problem.code, query).toBe('validation_failed');
      expect(problem.errors[0]!.pointer, query).toBe('/query/symbols');
      expect(problem.errors[0]!.message, query).toMatch(message);
    }
    // Exactly the cap is fine (every entry unsupported here, so each gets its error entry).
    const atCap = Array.from({ length: MAX_OUTLOOK_SYMBOLS }, (_, i) => `S${i}USDT`).join(',');
    const ok = await get(`/api/predictions/ai-outlook?symbols=${atCap}`);
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as { data: Entry[] }).data).toHaveLength(MAX_OUTLOOK_SYMBOLS);
  });

  it('leaves the one-symbol and market-wide forms as they were', async () => {
    const one = await get('/api/predictions/ai-outlook?symbol=ethusdt');
    expect(one.statusCode).toBe(200);
    expect(one.headers['meridian-normalized']).toBe('symbol=ethusdt->ETHUSDT');
    expect(one.json()).toMatchObject({ symbol: 'ETHUSDT', bias: expect.any(String), gaps: [] });
    const all = await get('/api/predictions/ai-outlook');
    expect(all.json()).toMatchObject({ symbol: null });
  });
});
