import { extractFeatures, type FeatureContext } from '../features/extract.ts';
import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import type { LiveInputs } from '../types.ts';
import { HorizonModel, type HorizonForecast } from './horizon-model.ts';
import type { EngineOptions } from './tuning.ts';
import { sigmaCandidates } from './sigma-pool.ts';
import { basketBurstFactor } from './vol.ts';

export { type HorizonForecast, type ViewForecast, ZERO_EXPERT } from './horizon-model.ts';
export { checkTuning, type EngineOptions, type EngineTuning } from './tuning.ts';
export type { View, ViewName } from './views.ts';

/**
 * Bumped whenever the model's logic or fixed hyper-parameters change; stored with every datapoint. The model
 * is this file over tuning.ts (fixed hyper-parameters, design switches), views.ts (the calibrated views'
 * layers and their sizes) and horizon-model.ts (one symbol × horizon: forecast and learning).
 */
export const MODEL_VERSION = 'meridian-ens-1.8.0';

/** All horizons of one symbol, reading features from a context that the caller keeps current. */
export class SymbolForecaster {
  readonly models: Record<Horizon, HorizonModel>;

  constructor(
    readonly symbol: string,
    readonly horizons: readonly Horizon[],
    options: EngineOptions,
  ) {
    this.models = {} as Record<Horizon, HorizonModel>;
    for (const h of horizons) this.models[h] = new HorizonModel(h, options);
  }

  /** Forecasts at time t from data known at t; undefined while history is too short (under 1 h). */
  forecast(ctx: FeatureContext, t: number, live?: LiveInputs): HorizonForecast[] | undefined {
    const fs = extractFeatures(live ? { ...ctx, live } : ctx, t);
    if (!fs) return undefined;
    const baseline = live?.mid !== undefined && live.mid > 0 ? live.mid : fs.lastClose;
    const out: HorizonForecast[] = [];
    const burst = basketBurstFactor(ctx.basket, ctx.series, t);
    for (const h of this.horizons) {
      const candidates = sigmaCandidates(ctx.series, fs.index, HORIZON_MS[h], burst);
      if (candidates === undefined) return undefined;
      out.push(this.models[h].forecast(fs, candidates, baseline));
    }
    return out;
  }

  /** Whether the model of `horizon` has made its first fit (its forecasts are published from then on). */
  fitted(horizon: Horizon): boolean {
    return this.models[horizon].fitted;
  }

  /** Bytes held by the calibration windows of every horizon (they grow with outcomes, up to 30 days' worth). */
  get heldBytes(): number {
    return this.horizons.reduce((sum, h) => sum + this.models[h].heldBytes, 0);
  }

  /** The bound of `heldBytes`' windows, every horizon (HorizonModel.maxWindowBytes). */
  get maxWindowBytes(): number {
    return this.horizons.reduce((sum, h) => sum + this.models[h].maxWindowBytes, 0);
  }

  learn(f: HorizonForecast, realizedPrice: number): void {
    this.models[f.horizon].learn(f, Math.log(realizedPrice / f.baseline));
  }
}
