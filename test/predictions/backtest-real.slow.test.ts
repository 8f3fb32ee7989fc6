import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../harness/shared-data.ts';
import { readCandleFile, readFundingFile } from '../../src/modules/market/index.ts';
import { GRID } from '../../src/modules/predictions/calibration/conformal.ts';
import { runBacktestCommand } from '../../src/main/backtest-command.ts';
import { type BacktestReport, FORECASTERS } from '../../src/modules/predictions/backtest/report.ts';
import { type BacktestDatapoint, runBacktest } from '../../src/modules/predictions/backtest/run.ts';
import { reportSvg } from '../../src/modules/predictions/backtest/svg.ts';

const SPOT = '../shared/data/market/binance-spot-2021/BTC_USDT-5m.json';
const PERP = '../shared/data/market/binance-usdm-2025/BTC_USDT_USDT-5m-futures.json';
const FUNDING = '../shared/data/market/binance-usdm-2025/BTC_USDT_USDT-8h-funding_rate.json';
const have = sharedDataPresent('real-data backtest tests', SPOT, PERP);

// Independent reference implementation of the baselines, written from their definitions only.
function invPhi(p: number): number {
  // Bisection on the erf-based CDF: slow, simple and independent of src/.
  const cdf = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
function erf(x: number): number {
  // Maclaurin series is exact enough for |x| < 6 with many terms; use a continued sum.
  const s = Math.sign(x);
  const a = Math.abs(x);
  if (a > 6) return s;
  let term = a;
  let sum = a;
  for (let n = 1; n < 200; n++) {
    term *= (-a * a) / n;
    sum += term / (2 * n + 1);
  }
  return (s * 2 * sum) / Math.sqrt(Math.PI);
}

describe.skipIf(!have)('backtester on a short real slice', () => {
  it('produces every metric for every forecaster, and its baselines match an independent computation', async () => {
    const all = await readCandleFile(SPOT);
    const bars = all.slice(0, 12 * 24 * 12); // 12 days of 5m bars
    const from = bars[0]!.openTime + 3 * 24 * 3_600_000;
    // Through the command line, as an operator runs it, with every forecast written out.
    const dir = await mkdtemp(join(tmpdir(), 'meridian-backtest-'));
    let report: BacktestReport;
    let lines: BacktestDatapoint[];
    try {
      const code = await runBacktestCommand([
        ...['--candles', SPOT, '--symbol', 'BTCUSDT', '--horizons', '15m,1h'],
        ...['--from', String(from), '--to', String(bars.at(-1)!.openTime + 300_000)],
        ...['--out', join(dir, 'r.json'), '--forecasts-out', join(dir, 'f.jsonl')],
      ]);
      expect(code).toBe(0);
      report = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as BacktestReport;
      lines = (await readFile(join(dir, 'f.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BacktestDatapoint);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const svg = reportSvg(report);
    expect(svg).toContain('<svg');
    expect(svg).toContain('Reliability diagram');
    for (const h of ['15m', '1h'] as const) {
      const hr = report.horizons[h]!;
      expect(Object.keys(hr.forecasters).sort()).toEqual([...FORECASTERS].sort());
      for (const m of Object.values(hr.forecasters)) {
        for (const k of [
          'count',
          'hitRate',
          'hitRateSE',
          'brier',
          'brierSkill',
          'ece',
          'crps',
          'crpsSkillVsEwma',
          'coverage80',
          'coverage90',
        ] as const)
          expect(Number.isFinite(m[k]), `${h} ${k}`).toBe(true);
        expect(Object.keys(m.pinball)).toHaveLength(19);
        expect(m.calibration).toHaveLength(10);
        expect(Number.isFinite(m.dieboldMarianoVsRandomWalk.statistic)).toBe(true);
      }
      expect(hr.leakage).toBeDefined();
      // The calibrated world runs on this run's own σ and means: an exactly right forecaster covers ≈ 80 %.
      const world = hr.calibratedWorld!;
      expect(world.replications).toBe(200);
      expect(world.coverage80.median).toBeGreaterThan(0.77);
      expect(world.coverage80.median).toBeLessThan(0.83);
      expect(world.independentOutcomes).toBeLessThan(hr.count);

      // Independent recomputation of the random-walk + EWMA Gaussian baseline.
      const hm = h === '15m' ? 900_000 : 3_600_000;
      const closeTime = bars.map((b) => b.openTime + 300_000);
      const byClose = new Map(closeTime.map((t, i) => [t, i]));
      let ewma = 0;
      const ewmaAt: number[] = [];
      for (let i = 0; i < bars.length; i++) {
        const prev = i ? bars[i - 1]!.close : bars[0]!.open;
        const r = Math.log(bars[i]!.close / prev);
        const dt = i ? closeTime[i]! - closeTime[i - 1]! : 300_000;
        const lambda = i ? 0.5 ** (dt / 3_600_000) : 0;
        ewma = lambda * ewma + ((1 - lambda) * r * r) / dt;
        ewmaAt.push(ewma);
      }
      const z = Array.from(GRID, (p) => invPhi(p));
      // The report starts after the warm-up (before the model's first fit); the JSONL says where that ends.
      const firstWarm = Math.min(
        ...lines.filter((d) => d.horizon === h).map((d) => Date.parse(d.generatedAt)),
      );
      let dropped = 0;
      let n = 0;
      let ups = 0;
      let crps = 0;
      let cover80 = 0;
      for (let i = 0; i < bars.length; i++) {
        const t = closeTime[i]!;
        if (t < from) continue;
        if (t < firstWarm) {
          if (byClose.has(t + hm)) dropped++;
          continue;
        }
        const j = byClose.get(t + hm);
        if (j === undefined) continue;
        const y = Math.log(bars[j]!.close / bars[i]!.close);
        const sd = Math.sqrt(ewmaAt[i]! * hm);
        n++;
        ups += y > 0 ? 1 : 0;
        let s = 0;
        for (let k = 0; k < z.length; k++) {
          const q = sd * z[k]!;
          s += y >= q ? GRID[k]! * (y - q) : (1 - GRID[k]!) * (q - y);
        }
        crps += (2 * s) / 100;
        cover80 += Math.abs(y) <= sd * z[89]! ? 1 : 0;
      }
      const base = hr.forecasters.rw_ewma;
      expect(hr.warmupDropped).toBe(dropped);
      expect(base.count).toBe(n);
      expect(base.hitRate).toBeCloseTo(ups / n, 10);
      expect(base.crps).toBeCloseTo(crps / n, 9);
      expect(base.coverage80).toBeCloseTo(cover80 / n, 10);
      expect(base.brier).toBeCloseTo(0.25, 12);
      expect(hr.forecasters.random_walk.hitRate).toBeCloseTo(ups / n, 10);
      // Direction: nothing near the look-ahead zone.
      expect(hr.forecasters.ensemble.hitRate).toBeLessThan(0.6);

      // An outside scorer of the JSONL (the published datapoints, 19 quantiles, outcome) reproduces the report.
      const mine = lines.filter((d) => d.horizon === h);
      const scoredLines = mine.filter((d) => d.outcome !== null);
      expect(scoredLines.length).toBe(hr.count);
      expect(mine.length).toBe(hr.count + hr.unscored);
      let hitN = 0;
      let cov = 0;
      let crps19 = 0;
      let flat = 0;
      for (const d of scoredLines) {
        expect(Object.keys(d.quantiles)).toHaveLength(19);
        expect(d.confidence).toBeGreaterThanOrEqual(0.5);
        const realized = d.outcome!.realized;
        const hit = d.prediction >= d.baseline ? realized > d.baseline : realized < d.baseline;
        expect(d.outcome!.hit).toBe(hit);
        hitN += hit ? 1 : 0;
        flat += d.prediction === d.baseline ? 1 : 0;
        cov += d.quantiles.p10! <= realized && realized <= d.quantiles.p90! ? 1 : 0;
        const y = Math.log(realized / d.baseline);
        let s = 0;
        for (let k = 1; k <= 19; k++) {
          const tau = k / 20;
          const q = Math.log(d.quantiles[`p${String(5 * k).padStart(2, '0')}`]! / d.baseline);
          s += y >= q ? tau * (y - q) : (1 - tau) * (q - y);
        }
        crps19 += (2 * s) / 19;
      }
      const ens = hr.forecasters.ensemble;
      expect(hitN / scoredLines.length).toBeCloseTo(ens.hitRate, 10);
      expect(flat / scoredLines.length).toBeCloseTo(ens.shareFlat, 10);
      expect(cov / scoredLines.length).toBeCloseTo(ens.coverage80, 3);
      expect(crps19 / scoredLines.length / ens.crpsPublished).toBeCloseTo(1, 6);
    }
  }, 240_000);

  it('leakage check: against shuffled or shifted outcomes the hit rate is ~50 % and the direction skill ~0', async () => {
    const bars = (await readCandleFile(PERP)).slice(0, 12 * 24 * 20);
    const funding = await readFundingFile(FUNDING);
    const report = runBacktest({
      symbol: 'BTCUSDT',
      bars: new Map([['BTCUSDT', bars]]),
      funding,
      horizons: ['15m'],
    });
    const hr = report.horizons['15m']!;
    expect(report.funding).toBe(true);
    const n = hr.count;
    for (const check of [hr.leakage!.shuffled, hr.leakage!.shiftedOneDay]) {
      expect(Math.abs(check.hitRate - 0.5)).toBeLessThan(4 * Math.sqrt(0.25 / n) * 2);
      expect(check.brierSkill).toBeLessThan(0.005);
      // Against outcomes it cannot know, the forecast is no better than the calibrated zero-mean reference.
      expect(Math.abs(check.crpsSkillVsReference)).toBeLessThan(0.005);
    }
  }, 240_000);
});
