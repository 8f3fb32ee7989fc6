import { describe, expect, it } from 'vitest';
import { simulatedSource } from '../../src/adapters/market/simulated/index.ts';
import type { FundingEvent, MarketEvent } from '../../src/modules/market/index.ts';
import { createMemoryCandleRepository } from '../../src/modules/market/repository.ts';
import { createMarketService } from '../../src/modules/market/service.ts';
import {
  createPredictionsService,
  createMemoryPredictionRepository,
  type PredictionsMarketPort,
} from '../../src/modules/predictions/index.ts';
import { extractFeatures } from '../../src/modules/predictions/features/extract.ts';
import { BarSeries, FundingSeries } from '../../src/modules/predictions/features/series.ts';
import { manualClock } from '../../src/shared/clock.ts';

const H = 3_600_000;
const NOW = Date.UTC(2026, 2, 10, 13, 30);
const SYMBOLS = ['BTCUSDT', 'ETHUSDT'];

describe('funding in simulated mode', () => {
  it('the simulated source settles funding at 00, 08 and 16 UTC, never ahead of its clock, at the rate its live feed announced', async () => {
    const clock = manualClock(NOW);
    const source = simulatedSource({ symbols: SYMBOLS, seed: 7, clock });
    const points = await source.fundingHistory!('BTCUSDT', NOW - 3 * 24 * H, NOW + 24 * H);
    // From 13:30 three days back to now: 16:00 and 00:00 three times each, 08:00 three times (today's included).
    expect(points.length).toBe(9);
    for (const p of points) {
      expect(p.time % (8 * H)).toBe(0);
      expect(p.time).toBeLessThanOrEqual(NOW);
      expect(Math.abs(p.rate)).toBeLessThanOrEqual(0.003);
    }
    expect(new Set(points.map((p) => p.rate)).size).toBeGreaterThan(5);
    // The live feed at the settlement instant announced exactly the settled rate.
    const settlement = points.at(-1)!;
    const events: MarketEvent[] = [];
    source.tickAt(settlement.time, (e) => events.push(e));
    const announced = events.filter((e): e is FundingEvent => e.kind === 'funding' && e.symbol === 'BTCUSDT');
    expect(announced.length).toBeGreaterThan(0);
    for (const e of announced) expect(e.rate).toBeCloseTo(settlement.rate, 12);
    expect(await source.fundingHistory!('DOGEUSDT', NOW - 24 * H, NOW)).toEqual([]);
  });

  it('reaches the funding member end to end: its features carry the settled rates, and the outlook says truthfully what became of them', async () => {
    const clock = manualClock(NOW);
    const market = createMarketService({
      source: simulatedSource({ symbols: SYMBOLS, seed: 7, clock }),
      repository: createMemoryCandleRepository(),
      clock,
      symbols: SYMBOLS,
      historyDays: 3,
    });
    await market.start();
    await market.windowsLoaded();
    try {
      const run = async (port: PredictionsMarketPort) => {
        const service = createPredictionsService({
          market: port,
          repository: createMemoryPredictionRepository(),
          clock,
          refreshMs: 60_000,
        });
        await service.start();
        await service.warmedUp();
        await service.stop();
        const page = JSON.parse(
          service
            .predictions({ symbol: 'BTCUSDT', horizon: '1h', granularityMs: 15 * 60_000, limit: 96 })
            .toString(),
        ).data as Array<{ factors: Record<string, number> }>;
        const outlook = JSON.parse(service.outlook('BTCUSDT').toString()) as {
          drivers: Array<{ factor: string; weight: number; reason: string }>;
        };
        return { page, funding: outlook.drivers.find((d) => d.factor === 'funding')! };
      };
      const featuresAtNow = async (history: PredictionsMarketPort['fundingHistory']) => {
        const series = new BarSeries('BTCUSDT', 60_000);
        for (const bar of market.recentCandles('BTCUSDT', '1m', 5000)) series.append(bar);
        const funding = new FundingSeries(history ? await history('BTCUSDT', NOW - 3 * 24 * H, NOW) : []);
        return extractFeatures({ series, basket: [series], funding }, NOW)!;
      };
      // The settled rates reach the member's features as they would from a live perpetual feed.
      const features = await featuresAtNow((s, from, to) => market.fundingHistory(s, from, to));
      expect(features.funding).toBeDefined();
      expect([...features.funding!].some((x) => x !== 0)).toBe(true);
      expect((await featuresAtNow(undefined)).funding).toBeUndefined();

      const perpetual = await run(market);
      // The 3-day working window ends before the model's first fit would cover the last 24 h, so the page holds
      // the live forecasts only (no pre-fit placeholders are backfilled).
      expect(perpetual.page.length).toBeGreaterThan(0);
      // Whether the member's mean passes is its walk-forward evidence's call (the simulated funding carries
      // no edge); what the outlook says about it must be true either way.
      expect(perpetual.funding.reason).toMatch(
        /^Funding is [+−]?\d+\.\d{4} % per 8 h, (longs pay shorts|shorts pay longs|neither side pays)(; the perpetual trades \d+\.\d bps (over|under) spot)?: /,
      );
      expect(perpetual.funding.reason).toMatch(
        perpetual.funding.weight > 0
          ? /: the model's record earns a (bullish|bearish) lean from funding and basis\.$/
          : /: the model has earned no direction from funding and basis at these horizons\.$/,
      );

      // The same market without its funding history (a spot-only source): the member is idle, and says so.
      const spot = await run({
        symbols: () => market.symbols(),
        snapshot: (s) => {
          const snap = market.snapshot(s);
          return snap && { ...snap, fundingRate: null, basisBps: null };
        },
        recentCandles: (s, i, n) => market.recentCandles(s, i, n),
      });
      expect(spot.page.filter((d) => d.factors.funding !== 0)).toEqual([]);
      expect(spot.funding.weight).toBe(0);
      expect(spot.funding.reason).toBe('No funding data: this market source has no perpetual funding feed.');
    } finally {
      await market.stop();
    }
  }, 120_000);
});
