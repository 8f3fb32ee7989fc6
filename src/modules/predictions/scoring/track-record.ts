import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
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
} from './metrics.ts';
import type { ScoredView } from './scored-columns.ts';

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

/** Metrics of the scored datapoints of one symbol × horizon (columns, oldest first); `stepMs` is the refresh period. */
export function trackRecord(rows: ScoredView, horizon: Horizon, stepMs: number): TrackRecord {
  const n = rows.generatedAt.length;
  const overlap = Math.max(1, Math.round(HORIZON_MS[horizon] / stepMs));
  const { hit: hits, confidence: confs } = rows;
  const widths = calibrationBins(confs, hits);
  const equalMass = calibrationBinsEqualMass(confs, hits);
  let brier = 0;
  let crps = 0;
  let crpsRef = 0;
  let crpsStored = 0;
  let crpsRw = 0;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    brier += (confs[i]! - hits[i]!) ** 2;
    crps += rows.crpsPublished[i]!;
    crpsRef += rows.crpsReference[i]!;
    d[i] = rows.crpsPublished[i]! - rows.crpsReference[i]!;
    crpsStored += rows.crps[i]!;
    crpsRw += rows.crpsRw[i]!;
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
    shareFlat: share(rows.flat),
    crpsSkillVsReference: crpsRef > 0 ? 1 - crps / crpsRef : 0,
    dieboldMarianoVsReference: { statistic: dm.statistic, pValue: dm.pValue },
    crpsSkillVsRandomWalk: crpsRw > 0 ? 1 - crpsStored / crpsRw : 0,
    coverage80: share(rows.covered80),
    coverage90: share(rows.covered90),
    coverage80BySigmaTercile: coverageBySigmaTercile(rows.sigma, rows.covered80),
  };
}

/** The share of set flags. */
function share(flags: Uint8Array): number {
  let set = 0;
  for (const f of flags) set += f;
  return set / flags.length;
}

/** Rounds every number to 4 decimals (NaN, e.g. an empty tercile, becomes null) for the API answer. */
export function roundDeep<T>(value: T): T {
  if (typeof value === 'number') return (Number.isFinite(value) ? Math.round(value * 1e4) / 1e4 : null) as T;
  if (Array.isArray(value)) return value.map(roundDeep) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)])) as T;
  return value;
}
