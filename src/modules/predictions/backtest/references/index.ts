import { HORIZON_MS, type Horizon } from '../../../identifiers/index.ts';
import type { BarSeries } from '../../features/series.ts';
import type { EngineTuning } from '../../models/engine.ts';
import { ewmaSigma } from '../../models/vol.ts';
import { type DieboldMariano, dieboldMariano, ScoreAccumulator } from '../../scoring/metrics.ts';
import { type CalibratedForecast, CalibratedZeroMean } from '../../references/calibrated.ts';
import { GarchReference, type GarchParams } from '../../references/garch.ts';
import { HarRvReference } from '../../references/har-rv.ts';

export const STRONG_REFERENCES = ['garch', 'har_rv'] as const;
export type StrongReferenceName = (typeof STRONG_REFERENCES)[number];
/** Every reference the ensemble is compared with: the two fitted ones and the two the report always had. */
export const COMPARED_REFERENCES = ['reference', 'rw_ewma', 'garch', 'har_rv'] as const;
export type ComparedReference = (typeof COMPARED_REFERENCES)[number];

/** One forecast of each strong reference at one time and horizon. */
export type StrongForecasts = Record<StrongReferenceName, CalibratedForecast>;

export interface ReferenceComparison {
  /** Mean CRPS of the reference (log return) and its 80 % coverage. */
  crps: number;
  coverage80: number;
  /** 1 − CRPS_ensemble / CRPS_reference on the same scored forecasts. */
  ensembleSkill: number;
  /** Diebold–Mariano on CRPS_ensemble − CRPS_reference (negative: the ensemble's is smaller), HAC. */
  dieboldMariano: DieboldMariano;
}

export interface StrongReferencesReport {
  versus: Record<ComparedReference, ReferenceComparison>;
  /** GARCH(1,1) parameters of the last fit (per bar) and how many fits the walk made. */
  garch: (GarchParams & { fits: number }) | null;
  /** HAR-RV coefficients of the last fit [b0, b1, b5, b22] and the fits made. */
  harRv: { coefficients: number[]; samples: number; fits: number } | null;
}

/**
 * GARCH(1,1) and HAR-RV, each fitted walk-forward on the target series (no look-ahead: every fit and
 * forecast at bar i reads bars 0..i), turned into zero-mean forecasts through the engine's conformal layer
 * and scored on the same outcomes as the ensemble. Before a reference's first fit it answers the EWMA σ.
 */
export class StrongReferences {
  private readonly garch: GarchReference;
  private readonly har = new Map<Horizon, HarRvReference>();
  private readonly layers = new Map<Horizon, Record<StrongReferenceName, CalibratedZeroMean>>();
  private readonly acc = new Map<Horizon, Record<StrongReferenceName, ScoreAccumulator>>();

  constructor(
    private readonly series: BarSeries,
    readonly horizons: readonly Horizon[],
    stepMs: number,
    tuningOf: (h: Horizon) => EngineTuning,
  ) {
    this.garch = new GarchReference(series);
    for (const h of horizons) {
      const hm = HORIZON_MS[h];
      this.har.set(h, new HarRvReference(series, hm));
      const layer = () => new CalibratedZeroMean(stepMs, hm, tuningOf(h));
      this.layers.set(h, { garch: layer(), har_rv: layer() });
      this.acc.set(h, { garch: new ScoreAccumulator(), har_rv: new ScoreAccumulator() });
    }
  }

  /** Forecasts at bar i (call with i non-decreasing). */
  forecast(i: number, h: Horizon): StrongForecasts {
    const hm = HORIZON_MS[h];
    const fallback = ewmaSigma(this.series, i, hm);
    const g = this.garch.sigma(i, hm);
    const r = this.har.get(h)!.sigma(i);
    const layers = this.layers.get(h)!;
    const t = this.series.closeTime[i]!;
    return {
      garch: layers.garch.forecast(g !== undefined && g > 0 ? g : fallback, t),
      har_rv: layers.har_rv.forecast(r !== undefined && r > 0 ? r : fallback, t),
    };
  }

  /** Scores forecasts whose outcome counts in the report (the ensemble's scored set). */
  score(h: Horizon, f: StrongForecasts, y: number): void {
    const a = this.acc.get(h)!;
    for (const name of STRONG_REFERENCES) a[name].add(f[name].quantiles, 0, 0.5, y, f[name].sigma);
  }

  /** Every realized outcome teaches the conformal layers, scored or not (as the engine learns). */
  learn(h: Horizon, f: StrongForecasts, y: number): void {
    const layers = this.layers.get(h)!;
    for (const name of STRONG_REFERENCES) layers[name].learn(f[name], y);
  }

  report(
    h: Horizon,
    ensemble: ScoreAccumulator,
    others: Record<'reference' | 'rw_ewma', ScoreAccumulator>,
    overlap: number,
  ): StrongReferencesReport {
    const all: Record<ComparedReference, ScoreAccumulator> = { ...others, ...this.acc.get(h)! };
    const versus = {} as Record<ComparedReference, ReferenceComparison>;
    for (const name of COMPARED_REFERENCES) versus[name] = compare(ensemble, all[name], overlap);
    const p = this.garch.params;
    const c = this.har.get(h)!.coefficients;
    return {
      versus,
      garch: p ? { ...p, fits: this.garch.fits } : null,
      harRv: c ? { coefficients: [...c.b], samples: c.samples, fits: this.har.get(h)!.fits } : null,
    };
  }
}

const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / Math.max(x.length, 1);

/** The ensemble against one reference scored on the same outcomes. */
export function compare(
  ensemble: ScoreAccumulator,
  ref: ScoreAccumulator,
  overlap: number,
): ReferenceComparison {
  const crps = mean(ref.crps);
  return {
    crps,
    coverage80: mean(ref.cover80),
    ensembleSkill: 1 - mean(ensemble.crps) / crps,
    dieboldMariano: dieboldMariano(
      ensemble.crps.map((e, k) => e - ref.crps[k]!),
      overlap,
    ),
  };
}
