import { describe, expect, it } from 'vitest';
import {
  type Bar,
  createMemoryPredictionRepository,
  createPredictionsService,
  type PredictionsMarketPort,
} from '../../src/modules/predictions/index.ts';
import { dieboldMariano, pinball } from '../../src/modules/predictions/scoring/metrics.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../../src/modules/predictions/types.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { mulberry32 } from '../../src/shared/random.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 0, 6);
/** Minutes of 1m history before START: the model's first fit (three days of outcomes) comes in the warm-up. */
const HISTORY = 4 * 24 * 60;
/** The references' first fit an hour after START (set through the service; by default a day plus a phase). */
const REFERENCE_MIN_HISTORY = (HISTORY + 60) * MIN;

/** Two symbols of 1m bars whose volatility clusters, closed bars only up to the clock. */
function market(clock: { now(): number }): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of ['BTCUSDT', 'ETHUSDT'].entries()) {
    const rand = mulberry32(11 + k);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const list: Bar[] = [];
    let p = k ? 3000 : 60000;
    let lv = 0;
    for (let i = 0; i < HISTORY + 4 * 60; i++) {
      lv = 0.995 * lv + 0.07 * normal();
      const open = p;
      p *= Math.exp(0.0008 * Math.exp(lv) * normal());
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
    symbols: () => ['BTCUSDT', 'ETHUSDT'],
    snapshot: (s) => ({
      mid: closed(s).at(-1)!.close,
      bookImbalance: 0.1,
      tradeImbalance5m: 0,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (s, _i, count) => closed(s).slice(-count),
  };
}

interface ReferenceCell {
  available: boolean;
  count: number;
  crpsSkill?: number;
  dieboldMariano?: { statistic: number; pValue: number };
  reason?: string;
}

describe('the live record against GARCH(1,1) and HAR-RV', () => {
  it('shows them absent before their first fit, then their skill and DM once enough scored outcomes carry them', async () => {
    const clock = manualClock(START);
    const repository = createMemoryPredictionRepository();
    const service = createPredictionsService({
      market: market(clock),
      repository,
      clock,
      refreshMs: MIN,
      candleHistory: HISTORY,
      minIndependentOutcomes: 2,
      referenceMinHistoryMs: REFERENCE_MIN_HISTORY,
    });
    service.warmUp();
    const cell = () => {
      const report = JSON.parse(service.performance().toString()) as {
        data: (Record<string, unknown> & { references: Record<'garch' | 'har_rv', ReferenceCell> })[];
        references: Record<string, string>;
      };
      expect(Object.keys(report.references).sort()).toEqual(['garch', 'har_rv']);
      return report.data.find((r) => r.symbol === 'BTCUSDT' && r.horizon === '15m')!;
    };
    const runTo = async (t: number) => {
      while (clock.now() < t) {
        await service.refresh();
        clock.advance(MIN);
      }
    };

    // 50 minutes in: the 15m cell has its figures, the references have no fit yet.
    await runTo(START + 50 * MIN);
    const before = cell();
    expect(before.sample).toBe('sufficient');
    expect(before.crpsSkillVsReference).toEqual(expect.any(Number));
    for (const name of ['garch', 'har_rv'] as const) {
      expect(before.references[name]).toEqual({
        available: false,
        count: 0,
        reason: expect.stringContaining('first fitted once a day of bars is held'),
      });
    }
    const scoredBefore = repository.rows.filter((r) => r.scored_at !== null);
    expect(scoredBefore.length).toBeGreaterThan(0);
    expect(scoredBefore.every((r) => r.crps_garch === null && r.crps_har_rv === null)).toBe(true);

    // Fitted an hour in; 2 independent outcomes (30 one-minute datapoints) of the 15m horizon scored after.
    await runTo(START + 125 * MIN);
    const after = cell();
    const rows = repository.rows.filter(
      (r) => r.symbol === 'BTCUSDT' && r.horizon === '15m' && r.scored_at !== null && !r.backfilled,
    );
    for (const [name, column] of [
      ['garch', 'crps_garch'],
      ['har_rv', 'crps_har_rv'],
    ] as const) {
      const carried = rows.filter((r) => r[column] !== null);
      // Every datapoint made from the fit on carries the reference; none before it.
      expect(carried.length).toBeGreaterThanOrEqual(30);
      for (const r of carried) expect(r.generated_at).toBeGreaterThanOrEqual(START + 60 * MIN);
      // The figures, recomputed from the stored record: the ensemble's CRPS on its 19 published quantiles
      // against the reference's stored CRPS, DM with HAC at the horizon's overlap (15 one-minute datapoints).
      const ensemble = carried.map((r) => {
        const y = Math.log(r.realized! / r.baseline);
        let s = 0;
        for (const tau of PUBLIC_QUANTILES)
          s += pinball(Math.log(r.quantiles[quantileKey(tau)]! / r.baseline), tau, y);
        return (2 * s) / PUBLIC_QUANTILES.length;
      });
      const reference = carried.map((r) => r[column]!);
      const sum = (x: number[]) => x.reduce((a, b) => a + b, 0);
      const dm = dieboldMariano(
        ensemble.map((e, k) => e - reference[k]!),
        15,
      );
      expect(after.references[name]).toEqual({
        available: true,
        count: carried.length,
        crpsSkill: Math.round((1 - sum(ensemble) / sum(reference)) * 1e4) / 1e4,
        dieboldMariano: {
          statistic: Math.round(dm.statistic * 1e4) / 1e4,
          pValue: Math.round(dm.pValue * 1e4) / 1e4,
        },
      });
      expect(Number.isFinite(dm.statistic)).toBe(true);
    }
  }, 300_000);
});
