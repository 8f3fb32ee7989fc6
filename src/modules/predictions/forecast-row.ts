import { HORIZON_MS } from '../identifiers/index.ts';
import { GRID_INDEX } from './calibration/conformal.ts';
import { ewmaSigma } from './models/vol.ts';
import type { HorizonForecast } from './models/engine.ts';
import { MODEL_VERSION } from './models/engine.ts';
import type { PredictionRow } from './repository.ts';
import type { BarSeries } from './features/series.ts';
import type { MarketFacts } from './facts.ts';
import { FACTORS, type Factor, PUBLIC_QUANTILES, quantileKey } from './types.ts';

/**
 * A forecast as its stored row (`toRow`): the published figures rounded once here, the quantiles and what
 * scoring needs. How a stored row is shown is `present.ts`.
 */

/** Rounds to 10 significant digits so payloads stay small and stable. */
const sig = (x: number) => Number(x.toPrecision(10));

/**
 * Signed factor shares with Σ|f| = 1 (all zero for a flat forecast). The largest share absorbs the
 * rounding remainder so the sum is exact at the published precision (6 decimals).
 */
export function factorShares(contributions: Record<Factor, number>): Record<Factor, number> {
  const total = FACTORS.reduce((s, f) => s + Math.abs(contributions[f]), 0);
  const out = { orderflow: 0, funding: 0, macro: 0, ai_residual: 0 } as Record<Factor, number>;
  if (!(total > 0) || !Number.isFinite(total)) return out;
  let largest: Factor = 'orderflow';
  for (const f of FACTORS) {
    out[f] = Math.round((contributions[f] / total) * 1e6) / 1e6;
    if (Math.abs(contributions[f]) > Math.abs(contributions[largest])) largest = f;
  }
  const rest = FACTORS.filter((f) => f !== largest).reduce((s, f) => s + Math.abs(out[f]), 0);
  out[largest] = (Math.sign(contributions[largest]) * Math.round((1 - rest) * 1e6)) / 1e6;
  return out;
}

/**
 * Whether a forecast's direction passed its evidence test: the ensemble mean is non-zero only where some
 * member's walk-forward record earned its pass, and the published median must lie on that mean's side (a
 * side called by the direction calibrator alone, with the mean at 0, is not earned).
 */
export function directionEarned(ens: { mu: number; median: number }): boolean {
  return ens.mu !== 0 && ens.median !== 0 && Math.sign(ens.median) === Math.sign(ens.mu);
}

/**
 * The stored row (datapoint + quantiles + what scoring needs) for one forecast; `facts` are the market facts
 * at its time that the outlook quotes (none in backtests).
 */
export function toRow(
  symbol: string,
  f: HorizonForecast,
  series: BarSeries,
  facts: MarketFacts = {},
): PredictionRow {
  const ens = f.views.ensemble!;
  const baseline = f.baseline;
  const prediction = baseline * Math.exp(ens.median);
  const quantiles: Record<string, number> = {};
  for (const level of PUBLIC_QUANTILES) {
    quantiles[quantileKey(level)] = sig(baseline * Math.exp(ens.quantiles[GRID_INDEX(level)]!));
  }
  const contributions = { ...f.contributions };
  if (ens.median === 0) for (const k of FACTORS) contributions[k] = 0;
  return {
    symbol,
    horizon: f.horizon,
    generated_at: f.t,
    baseline: sig(baseline),
    prediction: sig(prediction),
    expected_move_pct: sig((100 * (prediction - baseline)) / baseline),
    confidence: Math.round(ens.confidence * 1e4) / 1e4,
    factors: factorShares(contributions),
    quantiles,
    model_version: MODEL_VERSION,
    sigma: f.sigma,
    sigma_rw: ewmaSigma(series, f.features.index, horizonMsOf(f)),
    realized: null,
    hit: null,
    crps: null,
    crps_rw: null,
    crps_garch: null,
    crps_har_rv: null,
    covered80: null,
    covered90: null,
    scored_at: null,
    backfilled: false,
    direction_earned: directionEarned(ens),
    facts,
  };
}

const horizonMsOf = (f: HorizonForecast) => HORIZON_MS[f.horizon];
