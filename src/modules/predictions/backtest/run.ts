import { mulberry32 } from '../../../shared/random.ts';
import { GRID, GRID_INDEX } from '../calibration/conformal.ts';
import { type CalibratedWorld, calibratedWorld } from './calibrated-world.ts';
import { toRow } from '../forecast-row.ts';
import { presentDatapoint } from '../present.ts';
import { BarSeries, FundingSeries } from '../features/series.ts';
import {
  type EngineTuning,
  MODEL_VERSION,
  SymbolForecaster,
  ZERO_EXPERT,
  type HorizonForecast,
  type ViewName,
} from '../models/engine.ts';
import { SIGMA_CANDIDATES } from '../models/sigma-pool.ts';
import { ewmaSigma, expandingSigma } from '../models/vol.ts';
import {
  crpsFromGrid,
  type ForecasterMetrics,
  gaussianGrid,
  ScoreAccumulator,
  summarize,
} from '../scoring/metrics.ts';
import { HORIZONS, HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { type Bar, FACTORS, type FundingPoint } from '../types.ts';

export interface BacktestInput {
  /** The symbol forecast; its bars must be in `bars`. */
  symbol: string;
  /** Closed bars per symbol (the others form the market basket), oldest first. */
  bars: Map<string, readonly Bar[]>;
  funding?: readonly FundingPoint[];
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
  /** Design switches (see EngineTuning); production defaults when absent. */
  tuning?: Partial<EngineTuning>;
  tuningByHorizon?: Partial<Record<Horizon, Partial<EngineTuning>>>;
}

/** A published datapoint with `include=quantiles,outcome`, as GET /api/predictions would answer it. */
export type BacktestDatapoint = ReturnType<typeof presentDatapoint> & {
  quantiles: Record<string, number>;
  outcome: { realized: number; hit: boolean; scoredAt: string } | null;
};

export const FORECASTERS = ['ensemble', 'reference', 'equal', ...FACTORS, 'random_walk', 'rw_ewma'] as const;
const VIEWS: readonly ViewName[] = ['ensemble', 'reference', 'equal', ...FACTORS];
export type ForecasterName = (typeof FORECASTERS)[number];

export interface LeakageScore {
  hitRate: number;
  brierSkill: number;
  crpsSkillVsEwma: number;
  /** Against the calibrated zero-mean reference scored on the same outcomes: ≈ 0 without look-ahead. */
  crpsSkillVsReference: number;
}

export interface LeakageCheck {
  /** The ensemble scored against realized returns randomly permuted across time. */
  shuffled: LeakageScore;
  /** The ensemble scored against the return realized one day later than the one it forecast. */
  shiftedOneDay: LeakageScore;
}

export interface HorizonReport {
  horizon: Horizon;
  count: number;
  /** Forecasts made before the model's first fit (conformal layer and direction calibrator): not scored. */
  warmupDropped: number;
  /** Forecasts at or after the warm-up left unscored: no bar at the target time, or past `to`. */
  unscored: number;
  /** Total variation per hour of the ensemble's ACI level for its 80 % interval (adaptation speed). */
  aciAdaptationPerHour: number;
  /** Final slope of the realized scale on log σ (1: none) and evidence shrinkage factors. */
  finalSigmaSlope: number;
  finalShrinkage: Record<string, number>;
  forecasters: Record<ForecasterName, ForecasterMetrics>;
  finalWeights: Record<string, number>;
  /** Final weights of the σ pool (models/sigma-pool.ts). */
  finalSigmaWeights: Record<string, number>;
  leakage?: LeakageCheck;
  /**
   * The same metrics for a forecaster that is exactly right, on a world drawn with this run's σ and means:
   * how far from its target a figure lands by chance alone on a period of this length.
   */
  calibratedWorld?: CalibratedWorld;
  /** Rolling coverage of the ensemble's 80 % interval, one point per `coverageEvery` forecasts. */
  coverageSeries: { t: number; coverage80: number; coverage90: number }[];
}

export interface BacktestReport {
  symbol: string;
  modelVersion: string;
  /** The design switches this run used instead of the production defaults (absent: the production model). */
  tuning?: { all?: Partial<EngineTuning> } & Partial<Record<Horizon, Partial<EngineTuning>>>;
  barMs: number;
  stepMs: number;
  basket: string[];
  funding: boolean;
  from: string;
  to: string;
  forecastsMade: number;
  elapsedMs: number;
  horizons: Partial<Record<Horizon, HorizonReport>>;
}

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
}

interface Compact {
  t: number;
  median: number;
  conf: number;
  q: Float32Array;
  qRef: Float32Array;
  ewmaSigma: number;
  y: number;
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
        a.get('random_walk')!.add(gaussianGrid(0, p.rwSigma, grid), 0, 0.5, y, p.f.sigma);
        a.get('rw_ewma')!.add(gaussianGrid(0, p.ewmaSigma, grid), 0, 0.5, y, p.f.sigma);
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
    if (price !== undefined) engine.learn(p.f, price);
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
    const a = acc.get(h)!;
    const overlap = Math.max(1, Math.round(HORIZON_MS[h] / stepMs));
    const refs = {
      ewma: a.get('rw_ewma')!,
      randomWalk: a.get('random_walk')!,
      reference: a.get('reference')!,
    };
    const forecasters = {} as Record<ForecasterName, ForecasterMetrics>;
    if (a.get('ensemble')!.count < 2) continue;
    for (const name of FORECASTERS) forecasters[name] = summarize(a.get(name)!, refs, overlap);
    const model = engine.models[h];
    const w = model.weights.weights;
    const s = aci.get(h)!;
    report.horizons[h] = {
      horizon: h,
      count: a.get('ensemble')!.count,
      warmupDropped: warmupDropped.get(h)!,
      unscored: unscored.get(h)!,
      aciAdaptationPerHour: s.t1 > s.t0 ? s.total / ((s.t1 - s.t0) / 3_600_000) : 0,
      finalSigmaSlope: model.sigmaSlope.beta,
      finalShrinkage: {
        ...Object.fromEntries(FACTORS.map((f, k) => [f, model.memberShrink[k]!.factor])),
        ensemble: model.tuning.ensembleShrink ? model.ensembleShrink.factor : 1,
      },
      forecasters,
      finalWeights: { ...Object.fromEntries(FACTORS.map((f, k) => [f, w[k]!])), zero: w[ZERO_EXPERT]! },
      finalSigmaWeights: Object.fromEntries(
        SIGMA_CANDIDATES.slice(0, model.sigmaPool.size).map((c, k) => [c, model.sigmaPool.weights[k]!]),
      ),
      leakage: keep ? leakageCheck(compact.get(h)!, stepMs, input.seed ?? 1) : undefined,
      calibratedWorld: calibratedWorld({
        t: times.get(h)!,
        mu: means.get(h)!,
        sigma: sigmas.get(h)!,
        stepMs,
        horizonMs: HORIZON_MS[h],
        replications: input.calibratedWorldReplications ?? 200,
        seed: input.seed ?? 1,
      }),
      coverageSeries: coverageSeries(a.get('ensemble')!, times.get(h)!),
    };
  }
  report.elapsedMs = Math.round(performance.now() - started);
  return report;
}

function coverageSeries(a: ScoreAccumulator, times: number[]): HorizonReport['coverageSeries'] {
  const n = a.count;
  const chunk = Math.max(50, Math.floor(n / 60));
  const out: HorizonReport['coverageSeries'] = [];
  for (let s = 0; s + chunk <= n; s += chunk) {
    let c8 = 0;
    let c9 = 0;
    for (let k = s; k < s + chunk; k++) {
      c8 += a.cover80[k]!;
      c9 += a.cover90[k]!;
    }
    out.push({ t: times[s + chunk - 1]!, coverage80: c8 / chunk, coverage90: c9 / chunk });
  }
  return out;
}

// Small deterministic PRNG so the leakage check is reproducible.
export { mulberry32 } from '../../../shared/random.ts';

/** Scores the same forecasts against outcomes they cannot know: a permutation and a one-day shift. */
function leakageCheck(rows: Compact[], stepMs: number, seed: number): LeakageCheck {
  const score = (ys: number[], idx: number[]): LeakageScore => {
    let hits = 0;
    let brier = 0;
    let crps = 0;
    let crpsE = 0;
    let crpsR = 0;
    const g = new Float64Array(GRID.length);
    for (let k = 0; k < idx.length; k++) {
      const r = rows[idx[k]!]!;
      const y = ys[k]!;
      const hit = (r.median >= 0 ? y > 0 : y < 0) ? 1 : 0;
      hits += hit;
      brier += (r.conf - hit) ** 2;
      crps += crpsFromGrid(r.q, y);
      crpsR += crpsFromGrid(r.qRef, y);
      crpsE += crpsFromGrid(gaussianGrid(0, r.ewmaSigma, g), y);
    }
    const n = Math.max(idx.length, 1);
    return {
      hitRate: hits / n,
      brierSkill: 1 - brier / n / 0.25,
      crpsSkillVsEwma: 1 - crps / crpsE,
      crpsSkillVsReference: 1 - crps / crpsR,
    };
  };
  const rand = mulberry32(seed);
  const perm = rows.map((r) => r.y);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const all = rows.map((_, i) => i);
  const shift = Math.max(1, Math.round((24 * 60 * 60_000) / stepMs));
  const idx = all.slice(0, Math.max(0, rows.length - shift));
  const shifted = idx.map((i) => rows[i + shift]!.y);
  return { shuffled: score(perm, all), shiftedOneDay: score(shifted, idx) };
}
