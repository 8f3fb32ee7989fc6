import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { GRID_INDEX } from '../calibration/conformal.ts';
import type { BarSeries } from '../features/series.ts';
import type { EngineTuning } from '../models/engine.ts';
import { PUBLIC_QUANTILES } from '../types.ts';
import { type CalibratedForecast, CalibratedZeroMean } from './calibrated.ts';
import { GarchReference } from './garch.ts';
import { HarRvReference } from './har-rv.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The fitted volatility references the live record scores beside the ensemble. */
export const LIVE_REFERENCES = ['garch', 'har_rv'] as const;
export type LiveReferenceName = (typeof LIVE_REFERENCES)[number];

/**
 * Time between the outcomes the references' conformal layers learn from. Their windows are counted in
 * outcomes, so a forecast a minute would hold 30 times as many residuals for the same days; every 30 minutes
 * the windows keep their configured span at ≈ 43 KB a reference × horizon (see `maxWindowBytes`).
 */
export const REFERENCE_LEARN_STEP_MS = 30 * MINUTE;

/**
 * A reference's forecast for one datapoint: its σ and its calibrated layer's 19 quantiles (p05 … p95) at σ = 1
 * (zero mean, so the quantiles are σ × shape). Datapoints share a shape until the layer learns again (every
 * 30 minutes at most), so a datapoint waiting for its outcome holds two numbers a reference, not 19.
 */
export interface ReferenceForecast {
  sigma: number;
  shape: Float64Array;
}
export type ReferenceQuantiles = Partial<Record<LiveReferenceName, ReferenceForecast>>;

/** The 19 published quantiles (log return) of a reference's forecast. */
export const publishedQuantiles = (f: ReferenceForecast): Float64Array => f.shape.map((z) => f.sigma * z);

/** Shapes in use per reference × horizon: one per conformal layer it may pick (pooled, three σ terciles). */
const SHAPES_KEPT = 4;

/**
 * Where in the day a symbol's references are first fitted (and so refitted daily after): spread evenly by a
 * hash of the symbol, so a universe of hundreds does not refit in one refresh.
 */
export function refitPhaseMs(symbol: string): number {
  let h = 2166136261;
  for (let k = 0; k < symbol.length; k++) h = Math.imul(h ^ symbol.charCodeAt(k), 16777619);
  return ((h >>> 0) % 1440) * MINUTE;
}

interface ToLearn {
  horizon: Horizon;
  t: number;
  logBaseline: number;
  forecasts: Partial<Record<LiveReferenceName, CalibratedForecast>>;
}

/**
 * One symbol's GARCH(1,1) and HAR-RV references at every horizon, on the bar series the service holds: the
 * backtester's classes (references/garch.ts, har-rv.ts) fitted on the same schedule, through conformal layers
 * built by the engine's factories as the calibrated reference's are. `at(i)` reads bars 0..i only (i never
 * decreasing); a reference answers nothing before its first fit, which needs a day of history plus the
 * symbol's phase (`minHistoryMs`). The layers learn from one forecast every REFERENCE_LEARN_STEP_MS per horizon, once its
 * horizon has passed (the close at the target against the close at the forecast's bar).
 */
export class SymbolReferences {
  readonly garch: GarchReference;
  readonly har = new Map<Horizon, HarRvReference>();
  private readonly layers = new Map<Horizon, Record<LiveReferenceName, CalibratedZeroMean>>();
  private readonly shapes = new Map<string, Float64Array[]>();
  private readonly toLearn: ToLearn[] = [];
  private readonly nextLearn = new Map<Horizon, number>();
  /** The newest bar time answered: a replay of older bars (a restarted warm-up) is not answered again. */
  private lastT = Number.NEGATIVE_INFINITY;

  constructor(
    readonly series: BarSeries,
    readonly horizons: readonly Horizon[],
    tuningOf: (h: Horizon) => EngineTuning,
    /** History held before the first fit: a day, plus the symbol's phase so refits spread over the day. */
    minHistoryMs = DAY + refitPhaseMs(series.symbol),
  ) {
    this.garch = new GarchReference(series, { minHistoryMs });
    for (const h of horizons) {
      const hm = HORIZON_MS[h];
      this.har.set(h, new HarRvReference(series, hm, { minHistoryMs }));
      const layer = () => new CalibratedZeroMean(REFERENCE_LEARN_STEP_MS, hm, tuningOf(h));
      this.layers.set(h, { garch: layer(), har_rv: layer() });
      this.nextLearn.set(h, Number.NEGATIVE_INFINITY);
    }
  }

  /**
   * Learns from what has come due by bar i, then forecasts every horizon at bar i (absent before a fit); an
   * empty answer for a bar before the newest one answered.
   */
  at(i: number): Map<Horizon, ReferenceQuantiles> {
    const s = this.series;
    const t = s.closeTime[i]!;
    const out = new Map<Horizon, ReferenceQuantiles>();
    if (t < this.lastT) return out;
    this.lastT = t;
    this.learnDue(i);
    for (const h of this.horizons) {
      const hm = HORIZON_MS[h];
      const sigmas: Record<LiveReferenceName, number | undefined> = {
        garch: this.garch.sigma(i, hm),
        har_rv: this.har.get(h)!.sigma(i),
      };
      const layers = this.layers.get(h)!;
      const forecasts: Partial<Record<LiveReferenceName, CalibratedForecast>> = {};
      const published: ReferenceQuantiles = {};
      for (const name of LIVE_REFERENCES) {
        const sigma = sigmas[name];
        if (sigma === undefined || !(sigma > 0)) continue;
        const f = layers[name].forecast(sigma, t);
        forecasts[name] = f;
        published[name] = { sigma, shape: this.shapeOf(`${h}|${name}`, f) };
      }
      out.set(h, published);
      if (t >= this.nextLearn.get(h)! && Object.keys(forecasts).length) {
        this.nextLearn.set(h, t + REFERENCE_LEARN_STEP_MS);
        this.toLearn.push({ horizon: h, t, logBaseline: s.logClose[i]!, forecasts });
      }
    }
    return out;
  }

  /** The forecast's published quantiles at σ = 1, the array already held when the layer gave the same. */
  private shapeOf(key: string, f: CalibratedForecast): Float64Array {
    const shape = Float64Array.from(PUBLIC_QUANTILES, (tau) => f.quantiles[GRID_INDEX(tau)]! / f.sigma);
    const kept = this.shapes.get(key) ?? [];
    this.shapes.set(key, kept);
    const same = kept.find((k) => k.every((z, j) => Math.abs(z - shape[j]!) <= 1e-12 * (1 + Math.abs(z))));
    if (same) return same;
    kept.push(shape);
    if (kept.length > SHAPES_KEPT) kept.shift();
    return shape;
  }

  /** Forecasts whose horizon ended by bar i teach their layers (none with no bar within 2 min of the target). */
  private learnDue(i: number): void {
    const s = this.series;
    const now = s.closeTime[i]!;
    let kept = 0;
    for (const p of this.toLearn) {
      const target = p.t + HORIZON_MS[p.horizon];
      if (target > now) {
        this.toLearn[kept++] = p;
        continue;
      }
      const j = s.indexAt(target);
      if (j < 0 || target - s.closeTime[j]! > 2 * MINUTE) continue;
      const y = s.logClose[j]! - p.logBaseline;
      const layers = this.layers.get(p.horizon)!;
      for (const name of LIVE_REFERENCES) {
        const f = p.forecasts[name];
        if (f) layers[name].learn(f, y);
      }
    }
    this.toLearn.length = kept;
  }

  /** Bytes the references' calibration windows hold now, and their bound whatever the uptime. */
  get heldBytes(): number {
    return this.sumLayers((l) => l.heldBytes);
  }

  get maxWindowBytes(): number {
    return this.sumLayers((l) => l.maxWindowBytes);
  }

  private sumLayers(of: (l: CalibratedZeroMean) => number): number {
    let bytes = 0;
    for (const layers of this.layers.values()) for (const name of LIVE_REFERENCES) bytes += of(layers[name]);
    return bytes;
  }
}
