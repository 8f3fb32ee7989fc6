import { GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { toRow } from '../forecast-row.ts';
import { presentDatapoint } from '../present.ts';
import { BarSeries, FundingSeries, OpenInterestSeries } from '../features/series.ts';
import {
  type EngineTuning,
  MODEL_VERSION,
  SymbolForecaster,
  type HorizonForecast,
  type ViewName,
} from '../models/engine.ts';
import { ewmaSigma, expandingSigma } from '../models/vol.ts';
import { gaussianGrid, ScoreAccumulator } from '../scoring/metrics.ts';
import { HORIZONS, HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { type Bar, FACTORS, type FundingPoint, type OpenInterestPoint } from '../types.ts';
import type { Compact } from './leakage.ts';
import { TouchCalibrator } from '../calibration/touch.ts';
import { logQuantilesOfGrid, pathRanks } from '../level-probability.ts';
import { LevelTally, touchAtLevels } from './levels.ts';
import { type StrongForecasts, StrongReferences } from './references/index.ts';
import { type BacktestReport, FORECASTERS, type ForecasterName, horizonReport } from './report.ts';

export interface BacktestInput {
  /** The symbol forecast; its bars must be in `bars`. */
  symbol: string;
  /** Closed bars per symbol (the others form the market basket), oldest first. */
  bars: Map<string, readonly Bar[]>;
  funding?: readonly FundingPoint[];
  /** The perpetual's open interest (USD), read by the `funding` member as the derivatives module's series. */
  openInterest?: readonly OpenInterestPoint[];
  /** Only forecasts made at or after `from` whose horizon ends at or before `to` are scored (ms). */
  from?: number;
  to?: number;
  horizons?: readonly Horizon[];
  /** Keep what the leakage check needs (default true). */
  leakageCheck?: boolean;
  /** Seed of the leakage check's permutation and of the calibrated world's draws. */
  seed?: number;
  /** Draws of the calibrated world (see calibrated-world.ts; default 200, 0: none). */
  calibratedWorldReplications?: number;
  /** Time between forecasts (default: the bar size of the symbol's candles); a multiple of the bar size. */
  stepMs?: number;
  /** Receives every forecast made after the warm-up, as the API datapoint with quantiles and outcome. */
  onForecast?: (datapoint: BacktestDatapoint) => void;
  /** Receives every scored forecast with its realized log return (the funding ablation pairs them). */
  onScored?: (forecast: HorizonForecast, realized: number, ensembleCrps: number) => void;
  /** Score GARCH(1,1) and HAR-RV beside the ensemble (references/index.ts; default true). */
  strongReferences?: boolean;
  /** Design switches (see EngineTuning); production defaults when absent. */
  tuning?: Partial<EngineTuning>;
  tuningByHorizon?: Partial<Record<Horizon, Partial<EngineTuning>>>;
}

/** A published datapoint with `include=quantiles,outcome`, as GET /api/predictions would answer it. */
export type BacktestDatapoint = ReturnType<typeof presentDatapoint> & {
  quantiles: Record<string, number>;
  outcome: { realized: number; hit: boolean; scoredAt: string } | null;
};

const VIEWS: readonly ViewName[] = ['ensemble', 'reference', 'equal', ...FACTORS];

/** The bar size of a series: the most common gap between consecutive opens. */
function inferBarMs(bars: readonly Bar[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < Math.min(bars.length, 2000); i++) {
    const d = bars[i]!.openTime - bars[i - 1]!.openTime;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 60_000;
  let bestN = -1;
  for (const [d, n] of counts) if (n > bestN && d > 0) [best, bestN] = [d, n];
  return best;
}

interface Pending {
  f: HorizonForecast;
  ewmaSigma: number;
  rwSigma: number;
  strong?: StrongForecasts;
  /** The touch probabilities at the report's levels as answered at the forecast's time (scored ones only). */
  touch?: { p: Float32Array; empirical: boolean };
}

/**
 * Walk-forward backtest of the production model: one forecast per bar close, each scored (and learned
 * from) only once its horizon has passed in the replay. Nothing is fitted on the whole period.
 */
export function runBacktest(input: BacktestInput): BacktestReport {
  const started = performance.now();
  const horizons = input.horizons ?? HORIZONS;
  const targetBars = input.bars.get(input.symbol);
  if (!targetBars || targetBars.length === 0) throw new Error(`no candles for ${input.symbol}`);
  const barMs = inferBarMs(targetBars);
  const stepMs = input.stepMs ?? barMs;
  if (!(stepMs >= barMs) || stepMs % barMs !== 0)
    throw new Error(`step ${stepMs} ms is not a multiple of the ${barMs} ms bars`);
  const seriesBySymbol = new Map<string, BarSeries>();
  for (const [sym, bars] of input.bars) seriesBySymbol.set(sym, BarSeries.from(sym, inferBarMs(bars), bars));
  const series = seriesBySymbol.get(input.symbol)!;
  const ctx = {
    series,
    basket: [...seriesBySymbol.values()],
    funding: input.funding?.length ? new FundingSeries(input.funding) : undefined,
    openInterest: input.openInterest?.length ? new OpenInterestSeries(input.openInterest) : undefined,
  };
  const from = input.from ?? Number.NEGATIVE_INFINITY;
  const to = input.to ?? Number.POSITIVE_INFINITY;
  const engine = new SymbolForecaster(input.symbol, horizons, {
    stepMs,
    trackMembers: true,
    tuning: input.tuning,
    tuningByHorizon: input.tuningByHorizon,
  });
  const keep = input.leakageCheck ?? true;
  const strong =
    input.strongReferences === false
      ? undefined
      : new StrongReferences(series, horizons, stepMs, (h) => engine.models[h].tuning);

  const pending = new Map<Horizon, Pending[]>(horizons.map((h) => [h, []]));
  const acc = new Map<Horizon, Map<ForecasterName, ScoreAccumulator>>(
    horizons.map((h) => [h, new Map(FORECASTERS.map((n) => [n, new ScoreAccumulator()]))]),
  );
  const compact = new Map<Horizon, Compact[]>(horizons.map((h) => [h, []]));
  const times = new Map<Horizon, number[]>(horizons.map((h) => [h, []]));
  const means = new Map<Horizon, number[]>(horizons.map((h) => [h, []]));
  const sigmas = new Map<Horizon, number[]>(horizons.map((h) => [h, []]));
  const warmupDropped = new Map<Horizon, number>(horizons.map((h) => [h, 0]));
  const unscored = new Map<Horizon, number>(horizons.map((h) => [h, 0]));
  const aci = new Map<Horizon, { last: number; total: number; t0: number; t1: number }>(
    horizons.map((h) => [h, { last: Number.NaN, total: 0, t0: Number.NaN, t1: Number.NaN }]),
  );
  const levels = new Map<Horizon, LevelTally>(horizons.map((h) => [h, new LevelTally()]));
  // What the API's touch probability learns from: outcomes whose horizon has passed in the replay.
  const touch = new TouchCalibrator<Horizon>((h) => HORIZON_MS[h]);
  const grid = new Float64Array(GRID.length);
  let made = 0;
  let firstT = Number.NaN;
  let lastT = Number.NaN;

  const emit = (p: Pending, outcome: BacktestDatapoint['outcome']) => {
    if (!input.onForecast) return;
    const row = toRow(input.symbol, p.f, series);
    input.onForecast({ ...presentDatapoint(row), quantiles: row.quantiles, outcome });
  };

  const resolve = (h: Horizon, p: Pending, price: number | undefined) => {
    const target = p.f.t + HORIZON_MS[h];
    const inPeriod = p.f.t >= from && target <= to;
    const path = price === undefined ? undefined : series.extremes(p.f.t, target, p.f.baseline);
    if (!p.f.warm) {
      if (inPeriod && price !== undefined) warmupDropped.set(h, warmupDropped.get(h)! + 1);
    } else if (p.f.t >= from) {
      if (price === undefined || !inPeriod) {
        unscored.set(h, unscored.get(h)! + 1);
        emit(p, null);
      } else {
        const y = Math.log(price / p.f.baseline);
        const e = p.f.views.ensemble!;
        emit(p, {
          realized: price,
          hit: e.median >= 0 ? y > 0 : y < 0,
          scoredAt: new Date(target).toISOString(),
        });
        const a = acc.get(h)!;
        for (const name of VIEWS) {
          const v = p.f.views[name]!;
          a.get(name as ForecasterName)!.add(v.quantiles, v.median, v.confidence, y, p.f.sigma);
        }
        input.onScored?.(p.f, y, a.get('ensemble')!.crps.at(-1)!);
        a.get('random_walk')!.add(gaussianGrid(0, p.rwSigma, grid), 0, 0.5, y, p.f.sigma);
        a.get('rw_ewma')!.add(gaussianGrid(0, p.ewmaSigma, grid), 0, 0.5, y, p.f.sigma);
        if (p.strong) strong?.score(h, p.strong, y);
        levels.get(h)!.add(e.quantiles, p.f.sigma, y, path, p.touch);
        times.get(h)!.push(p.f.t);
        means.get(h)!.push(e.mu);
        sigmas.get(h)!.push(p.f.sigma);
        if (Number.isNaN(firstT)) firstT = p.f.t;
        lastT = Math.max(Number.isNaN(lastT) ? p.f.t : lastT, p.f.t);
        if (keep) {
          compact.get(h)!.push({
            t: p.f.t,
            median: e.median,
            conf: e.confidence,
            q: Float32Array.from(e.quantiles),
            qRef: Float32Array.from(p.f.views.reference!.quantiles),
            ewmaSigma: p.ewmaSigma,
            y,
          });
        }
      }
    }
    if (price !== undefined) {
      engine.learn(p.f, price);
      if (path) touch.of(h).add(p.f.t, pathRanks(logQuantilesOfGrid(p.f.views.ensemble!.quantiles), path));
      if (p.strong) strong?.learn(h, p.strong, Math.log(price / p.f.baseline));
    }
  };

  let next = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < series.length; i++) {
    const t = series.closeTime[i]!;
    if (t > to) break;
    // 1. Score and learn from every forecast whose horizon ended by now (its realized price is bar i or older).
    for (const h of horizons) {
      const queue = pending.get(h)!;
      while (queue.length && queue[0]!.f.t + HORIZON_MS[h] <= t) {
        const p = queue.shift()!;
        const target = p.f.t + HORIZON_MS[h];
        const j = series.indexAt(target);
        // A gap at the target time (exchange maintenance) leaves the forecast unscored.
        resolve(h, p, j >= 0 && series.closeTime[j] === target ? series.close[j]! : undefined);
      }
    }
    // 2. Forecast from what is known at t, once per step.
    if (t < next) continue;
    next = t + stepMs;
    const forecasts = engine.forecast(ctx, t);
    if (!forecasts) continue;
    const rw = expandingSigma(series, i, 1);
    for (const f of forecasts) {
      const hm = HORIZON_MS[f.horizon];
      pending.get(f.horizon)!.push({
        f,
        ewmaSigma: ewmaSigma(series, i, hm),
        rwSigma: rw === undefined ? f.sigma : rw * Math.sqrt(hm),
        strong: strong?.forecast(i, f.horizon),
        touch:
          f.warm && t >= from
            ? touchAtLevels(f.views.ensemble!.quantiles, f.sigma, touch.of(f.horizon))
            : undefined,
      });
      made++;
      if (f.warm && t >= from) {
        const level = engine.models[f.horizon].views.ensemble!.conformal.levels[GRID_INDEX(0.1)]!;
        const s = aci.get(f.horizon)!;
        if (!Number.isNaN(s.last)) s.total += Math.abs(level - s.last);
        else s.t0 = t;
        s.last = level;
        s.t1 = t;
      }
    }
  }
  // Forecasts whose horizon runs past the data: written out unscored, and counted as such.
  for (const h of horizons)
    for (const p of pending.get(h)!) {
      if (!p.f.warm || p.f.t < from) continue;
      unscored.set(h, unscored.get(h)! + 1);
      emit(p, null);
    }

  const report: BacktestReport = {
    symbol: input.symbol,
    modelVersion: MODEL_VERSION,
    ...(input.tuning || input.tuningByHorizon
      ? { tuning: { ...(input.tuning ? { all: input.tuning } : {}), ...input.tuningByHorizon } }
      : {}),
    barMs,
    stepMs,
    basket: [...seriesBySymbol.keys()],
    funding: Boolean(ctx.funding),
    from: Number.isNaN(firstT) ? '' : new Date(firstT).toISOString(),
    to: Number.isNaN(lastT) ? '' : new Date(lastT).toISOString(),
    forecastsMade: made,
    elapsedMs: 0,
    horizons: {},
  };
  for (const h of horizons) {
    const horizon = horizonReport(
      h,
      {
        acc: acc.get(h)!,
        warmupDropped: warmupDropped.get(h)!,
        unscored: unscored.get(h)!,
        aci: aci.get(h)!,
        compact: keep ? compact.get(h)! : undefined,
        times: times.get(h)!,
        means: means.get(h)!,
        sigmas: sigmas.get(h)!,
        levels: levels.get(h)!,
      },
      engine.models[h],
      { stepMs, seed: input.seed ?? 1, replications: input.calibratedWorldReplications ?? 200 },
    );
    if (horizon && strong) {
      const a = acc.get(h)!;
      horizon.strongReferences = strong.report(
        h,
        a.get('ensemble')!,
        { reference: a.get('reference')!, rw_ewma: a.get('rw_ewma')! },
        Math.max(1, Math.round(HORIZON_MS[h] / stepMs)),
      );
    }
    if (horizon) report.horizons[h] = horizon;
  }
  report.elapsedMs = Math.round(performance.now() - started);
  return report;
}
