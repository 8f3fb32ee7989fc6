import type { PredictionRow } from '../repository.ts';
import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../types.ts';
import {
  type BrierDecomposition,
  brierDecomposition,
  type CalibrationBin,
  calibrationBins,
  calibrationBinsEqualMass,
  type ConfidenceSummary,
  confidenceSummary,
  coverageBySigmaTercile,
  dieboldMariano,
  hitRateWithSE,
  pinball,
} from './metrics.ts';

/** The live track record of one symbol × horizon, with the backtester's metrics. */
export interface TrackRecord {
  count: number;
  hitRate: number;
  hitRateSE: number;
  brier: number;
  brierDecomposition: BrierDecomposition;
  ece: number;
  eceEqualMass: number;
  calibration: CalibrationBin[];
  calibrationEqualMass: CalibrationBin[];
  confidence: ConfidenceSummary;
  shareFlat: number;
  crpsSkillVsReference: number;
  dieboldMarianoVsReference: { statistic: number; pValue: number };
  crpsSkillVsRandomWalk: number;
  coverage80: number;
  coverage90: number;
  coverage80BySigmaTercile: number[];
}

/**
 * CRPS of a stored datapoint from its 19 published quantiles (log return vs the baseline), and of the
 * calibrated zero-mean reference: the same quantiles re-centred so their median is the baseline (the same
 * σ and conformal shape with the mean fixed at 0). Both on the same coarse rule, so their ratio is fair.
 */
export function publishedCrps(r: PredictionRow, y: number): { model: number; reference: number } {
  const median = Math.log(r.prediction / r.baseline);
  let model = 0;
  let reference = 0;
  for (const tau of PUBLIC_QUANTILES) {
    const q = Math.log(r.quantiles[quantileKey(tau)]! / r.baseline);
    model += pinball(q, tau, y);
    reference += pinball(q - median, tau, y);
  }
  return {
    model: (2 * model) / PUBLIC_QUANTILES.length,
    reference: (2 * reference) / PUBLIC_QUANTILES.length,
  };
}

/** Metrics of the scored rows of one symbol × horizon, oldest first; `stepMs` is the refresh period. */
export function trackRecord(rows: readonly PredictionRow[], horizon: Horizon, stepMs: number): TrackRecord {
  const n = rows.length;
  const overlap = Math.max(1, Math.round(HORIZON_MS[horizon] / stepMs));
  const hits = rows.map((r) => (r.hit ? 1 : 0));
  const confs = rows.map((r) => r.confidence);
  const widths = calibrationBins(confs, hits);
  const equalMass = calibrationBinsEqualMass(confs, hits);
  let brier = 0;
  let crps = 0;
  let crpsRef = 0;
  let crpsStored = 0;
  let crpsRw = 0;
  const d: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    brier += (r.confidence - hits[i]!) ** 2;
    const c = publishedCrps(r, Math.log(r.realized! / r.baseline));
    crps += c.model;
    crpsRef += c.reference;
    d.push(c.model - c.reference);
    crpsStored += r.crps ?? 0;
    crpsRw += r.crps_rw ?? 0;
  }
  const dm = dieboldMariano(d, overlap);
  return {
    count: n,
    ...hitRateWithSE(hits, overlap),
    brier: brier / n,
    brierDecomposition: brierDecomposition(equalMass.bins, n),
    ece: widths.ece,
    eceEqualMass: equalMass.ece,
    calibration: widths.bins,
    calibrationEqualMass: equalMass.bins,
    confidence: confidenceSummary(confs),
    shareFlat: rows.filter((r) => r.prediction === r.baseline).length / n,
    crpsSkillVsReference: crpsRef > 0 ? 1 - crps / crpsRef : 0,
    dieboldMarianoVsReference: { statistic: dm.statistic, pValue: dm.pValue },
    crpsSkillVsRandomWalk: crpsRw > 0 ? 1 - crpsStored / crpsRw : 0,
    coverage80: rows.filter((r) => r.covered80).length / n,
    coverage90: rows.filter((r) => r.covered90).length / n,
    coverage80BySigmaTercile: coverageBySigmaTercile(
      rows.map((r) => r.sigma),
      rows.map((r) => (r.covered80 ? 1 : 0)),
    ),
  };
}

/** Rounds every number to 4 decimals (NaN, e.g. an empty tercile, becomes null) for the API answer. */
export function roundDeep<T>(value: T): T {
  if (typeof value === 'number') return (Number.isFinite(value) ? Math.round(value * 1e4) / 1e4 : null) as T;
  if (Array.isArray(value)) return value.map(roundDeep) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)])) as T;
  return value;
}
