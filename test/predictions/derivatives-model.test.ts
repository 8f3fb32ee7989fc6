import { describe, expect, it } from 'vitest';
import { simulatedDerivativesSource } from '../../src/adapters/derivatives/simulated.ts';
import { simulatedSource } from '../../src/adapters/market/simulated/index.ts';
import { PriceModel } from '../../src/adapters/market/simulated/model.ts';
import { profileOf } from '../../src/adapters/market/simulated/universe.ts';
import { derivativesForModel } from '../../src/app/predictions.ts';
import {
  type DerivativesService,
  createDerivativesService,
  createMemoryDerivativesRepository,
} from '../../src/modules/derivatives/index.ts';
import { createMemoryCandleRepository } from '../../src/modules/market/repository.ts';
import { createMarketService } from '../../src/modules/market/service.ts';
import {
  createMemoryPredictionRepository,
  createPredictionsService,
} from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';

const H = 3_600_000;
const NOW = Date.UTC(2026, 2, 10, 13, 30);
const SEED = 7;
const quiet = { warn: () => {}, info: () => {} };

describe('the funding member reads the derivatives module', () => {
  it('a symbol with a perpetual gets its real funding, basis and open interest; one without gets none, whatever the market snapshot says', async () => {
    const clock = manualClock(NOW);
    const symbols = ['BTCUSDT', 'ETHUSDT'];
    const market = createMarketService({
      source: simulatedSource({ symbols, seed: SEED, clock }),
      repository: createMemoryCandleRepository(),
      clock,
      symbols,
      historyDays: 3,
    });
    // The derivatives source lists a perpetual for BTCUSDT only.
    const perps = ['BTCUSDT'];
    const derivatives = createDerivativesService({
      source: simulatedDerivativesSource({
        model: new PriceModel(SEED, perps, profileOf),
        symbols: perps,
        clock,
      }),
      repository: createMemoryDerivativesRepository(),
      clock,
      symbols: perps,
      sourceLabel: 'simulated',
      staleMs: 300_000,
      outlierBps: 100,
      refreshMs: 3_600_000,
      historyDays: 10,
      log: quiet,
    });
    await market.start();
    await market.windowsLoaded();
    await derivatives.start();
    await derivatives.backfilled();
    try {
      // The market snapshot has a funding rate for ETHUSDT (the simulated spot market announces one).
      expect(market.snapshot('ETHUSDT')?.fundingRate).not.toBeNull();
      const port = derivativesForModel(derivatives);
      const view = derivatives.views(['BTCUSDT'])[0]!;
      expect(port.latest('BTCUSDT')).toEqual({
        fundingRate: view.funding!.rate,
        fundingIntervalHours: view.funding!.intervalHours,
        basisBps: view.basis!.bps,
      });
      expect(port.latest('ETHUSDT')).toBeUndefined();
      const oi = await port.openInterestHistory('BTCUSDT', NOW - 8 * 24 * H, NOW);
      expect(oi.length).toBeGreaterThan(7 * 24);
      expect(oi.every((p) => p.time < NOW && p.usd > 0)).toBe(true);

      const service = createPredictionsService({
        market,
        derivatives: port,
        repository: createMemoryPredictionRepository(),
        clock,
        refreshMs: 60_000,
      });
      await service.start();
      await service.warmedUp();
      await service.stop();
      const outlook = (symbol: string) =>
        JSON.parse(service.outlook(symbol).toString()) as {
          drivers: Array<{ factor: string; weight: number; reason: string }>;
        };
      const page = (symbol: string) =>
        JSON.parse(
          service.predictions({ symbol, horizon: '1h', granularityMs: 15 * 60_000, limit: 96 }).toString(),
        ).data as Array<{ factors: Record<string, number> }>;

      // BTCUSDT: the sentence quotes the derivatives module's rate and basis, and open interest's 4 h change.
      const btc = outlook('BTCUSDT').drivers.find((d) => d.factor === 'funding')!;
      const rate = view.funding!.rate;
      const pct = `${rate > 0 ? '+' : rate < 0 ? '−' : ''}${Math.abs(100 * rate).toFixed(4)} %`;
      expect(btc.reason.startsWith(`Funding is ${pct} per 8 h, `)).toBe(true);
      expect(btc.reason).toMatch(/; the perpetual trades \d+\.\d bps (over|under) spot/);
      expect(btc.reason).toMatch(
        /; open interest (is flat over 4 h|(rose|fell) \d+\.\d % over 4 h \(positions (opened|closed)\)): /,
      );
      expect(btc.reason).toMatch(/from funding, basis and open interest( at these horizons)?\.$/);

      // ETHUSDT has no perpetual: no funding reaches its member, though the market snapshot announces a rate.
      expect(page('ETHUSDT').length).toBeGreaterThan(0);
      expect(page('ETHUSDT').filter((d) => d.factors.funding !== 0)).toEqual([]);
      const eth = outlook('ETHUSDT').drivers.find((d) => d.factor === 'funding')!;
      expect(eth.weight).toBe(0);
      expect(eth.reason).toBe('No funding data: this market source has no perpetual funding feed.');
    } finally {
      await derivatives.stop();
      await market.stop();
    }
  }, 180_000);

  it('reads a long span of stored open interest page by page, and a stale view as absent', async () => {
    const repository = createMemoryDerivativesRepository();
    const t0 = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 15 * 96 }, (_, k) => ({
      symbol: 'BTCUSDT',
      metric: 'open_interest' as const,
      time: t0 + k * 15 * 60_000 + 7_000,
      value: 5e9 + k,
      value2: null,
    }));
    await repository.upsert(rows);
    let stale = false;
    const service = {
      history: (q: Parameters<DerivativesService['history']>[0]) =>
        repository.buckets(q.symbol, q.metric, q.intervalMs, q.fromMs, q.toMs, q.limit, 'last'),
      views: () => [{ stale, funding: { rate: 0.0001, intervalHours: 8 }, basis: { bps: 1.5 } }],
    } as unknown as DerivativesService;
    const port = derivativesForModel(service);
    const oi = await port.openInterestHistory('BTCUSDT', t0, t0 + 16 * 24 * H);
    expect(oi.map((p) => p.time)).toEqual(rows.map((r) => r.time));
    expect(port.latest('BTCUSDT')).toEqual({ fundingRate: 0.0001, fundingIntervalHours: 8, basisBps: 1.5 });
    stale = true;
    expect(port.latest('BTCUSDT')).toEqual({ fundingRate: null, fundingIntervalHours: null, basisBps: null });
  });
});
