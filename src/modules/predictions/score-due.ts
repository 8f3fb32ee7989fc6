import { GRID_INDEX } from './calibration/conformal.ts';
import type { TouchCalibrator } from './calibration/touch.ts';
import { logQuantilesOfGrid, pathRanks } from './level-probability.ts';
import type { BarSeries } from './features/series.ts';
import type { HorizonForecast, SymbolForecaster } from './models/engine.ts';
import type { Live } from './read-model.ts';
import type { PredictionRow, ScoreUpdate } from './repository.ts';
import { publishedQuantiles, type ReferenceQuantiles } from './references/live.ts';
import { crpsFromGrid, crpsGaussian, crpsOfPublicQuantiles, pinball } from './scoring/metrics.ts';
import { HORIZON_MS, type Horizon } from '../identifiers/index.ts';
import { PUBLIC_QUANTILES, quantileKey } from './types.ts';

const MINUTE = 60_000;

/** The realized price at time T: the close of the last 1m bar that closed at or before T (≤ 2 min old). */
function realizedAt(s: BarSeries | undefined, target: number): number | undefined {
  if (!s) return undefined;
  const j = s.indexAt(target);
  if (j < 0 || target - s.closeTime[j]! > 2 * MINUTE) return undefined;
  return s.close[j];
}

/**
 * Feeds one outcome to its symbol's touch excursions: the highest and lowest price of the bars from the forecast
 * to its horizon (both known once the horizon has passed), ranked under the forecast's published quantiles.
 */
export function learnTouch(
  touch: TouchCalibrator<Horizon> | undefined,
  s: BarSeries | undefined,
  f: { t: number; horizon: Horizon; baseline: number },
  logQ: readonly number[],
): void {
  const path = touch && s?.extremes(f.t, f.t + HORIZON_MS[f.horizon], f.baseline);
  if (path) touch!.of(f.horizon).add(f.t, pathRanks(logQ, path));
}

/**
 * Scores the unscored rows whose horizon has passed by `now` against the realized price, in place (the row
 * takes the update's fields), lets the model learn from those whose forecast this process still has, and
 * hands the scored rows to the track record. A row with no bar at its target is given up after a day.
 * Returns the updates to store.
 */
export function scoreDue(
  now: number,
  deps: {
    unscored: Live[];
    series: ReadonlyMap<string, BarSeries>;
    modelOf: (symbol: string) => SymbolForecaster;
    trackScored: (rows: readonly PredictionRow[]) => void;
    /** The symbol's touch excursions, fed with each scored outcome's path (calibration/touch.ts). */
    touchOf?: (symbol: string) => TouchCalibrator<Horizon>;
  },
): ScoreUpdate[] {
  const { unscored } = deps;
  const updates: ScoreUpdate[] = [];
  const scoredRows: PredictionRow[] = [];
  const paths: { symbol: string; f: { t: number; horizon: Horizon; baseline: number }; logQ: number[] }[] =
    [];
  for (let k = unscored.length - 1; k >= 0; k--) {
    const live = unscored[k]!;
    const r = live.row;
    const target = r.generated_at + HORIZON_MS[r.horizon];
    if (target > now) continue;
    const price = realizedAt(deps.series.get(r.symbol), target);
    if (price === undefined) {
      // No bar at the target (outage): give up after a day, unscored.
      if (now - target > 24 * 60 * MINUTE) unscored.splice(k, 1);
      continue;
    }
    unscored.splice(k, 1);
    const y = Math.log(price / r.baseline);
    const up = r.prediction >= r.baseline;
    const hit = up ? price > r.baseline : price < r.baseline;
    let crps: number;
    let q10: number;
    let q90: number;
    let q05: number;
    let q95: number;
    const logQ = PUBLIC_QUANTILES.map((l) => Math.log(r.quantiles[quantileKey(l)]! / r.baseline));
    if (live.forecast) {
      const q = live.forecast.views.ensemble!.quantiles;
      crps = crpsFromGrid(q, y);
      [q05, q10, q90, q95] = [0.05, 0.1, 0.9, 0.95].map((l) => q[GRID_INDEX(l)]!) as [
        number,
        number,
        number,
        number,
      ];
      deps.modelOf(r.symbol).learn(live.forecast, price);
    } else {
      // After a restart only the published quantiles remain: a coarser rule on p05…p95 (see docs).
      const lq = logQ;
      crps =
        (2 * PUBLIC_QUANTILES.reduce((s, l, i) => s + pinball(lq[i]!, l, y), 0)) / PUBLIC_QUANTILES.length;
      [q05, q10, q90, q95] = [lq[0]!, lq[1]!, lq[17]!, lq[18]!];
    }
    const f = { t: r.generated_at, horizon: r.horizon, baseline: r.baseline };
    paths.push({ symbol: r.symbol, f, logQ });
    const update: ScoreUpdate = {
      symbol: r.symbol,
      horizon: r.horizon,
      generated_at: r.generated_at,
      realized: price,
      hit,
      crps,
      crps_rw: crpsGaussian(0, r.sigma_rw, y),
      crps_garch: referenceCrps(live.references, 'garch', y),
      crps_har_rv: referenceCrps(live.references, 'har_rv', y),
      covered80: q10 <= y && y <= q90,
      covered90: q05 <= y && y <= q95,
      scored_at: now,
    };
    Object.assign(r, update);
    live.forecast = undefined;
    live.references = undefined;
    updates.push(update);
    scoredRows.push(r);
  }
  // Oldest first: the excursions keep outcomes in order of forecast time.
  if (deps.touchOf)
    for (const p of paths.sort((a, b) => a.f.t - b.f.t))
      learnTouch(deps.touchOf(p.symbol), deps.series.get(p.symbol), p.f, p.logQ);
  deps.trackScored(scoredRows);
  return updates;
}

/**
 * A fitted reference's CRPS on the 19 published quantiles (the rule the track record scores the ensemble's
 * with); null when it had not been fitted at the datapoint's time, or this process no longer has its forecast.
 */
function referenceCrps(
  refs: ReferenceQuantiles | undefined,
  name: keyof ReferenceQuantiles,
  y: number,
): number | null {
  const q = refs?.[name];
  return q ? crpsOfPublicQuantiles(publishedQuantiles(q), y) : null;
}

/** A forecast made before its model's first fit: never published, kept only for the model to learn from. */
export interface Unpublished {
  symbol: string;
  forecast: HorizonForecast;
}

/**
 * Lets the models learn from the unpublished forecasts whose horizon has passed by `now`, in place: what takes
 * a model to its first fit. Nothing is scored or stored. One with no bar at its target is given up after a day.
 */
export function learnDue(
  now: number,
  deps: {
    unpublished: Unpublished[];
    series: ReadonlyMap<string, BarSeries>;
    modelOf: (symbol: string) => SymbolForecaster;
    touchOf?: (symbol: string) => TouchCalibrator<Horizon>;
  },
): void {
  const { unpublished } = deps;
  let kept = 0;
  for (const u of unpublished) {
    const target = u.forecast.t + HORIZON_MS[u.forecast.horizon];
    const price = target <= now ? realizedAt(deps.series.get(u.symbol), target) : undefined;
    if (price !== undefined) {
      deps.modelOf(u.symbol).learn(u.forecast, price);
      const logQ = logQuantilesOfGrid(u.forecast.views.ensemble!.quantiles);
      learnTouch(deps.touchOf?.(u.symbol), deps.series.get(u.symbol), u.forecast, logQ);
    } else if (target > now || now - target <= 24 * 60 * MINUTE) unpublished[kept++] = u;
  }
  unpublished.length = kept;
}
