import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { LIVE_REFERENCES, type LiveReferenceName } from '../references/live.ts';
import { dieboldMariano } from './metrics.ts';
import type { ScoredView } from './scored-columns.ts';

/** The ensemble against one fitted reference over the scored datapoints that carry the reference's CRPS. */
export interface ReferenceRecord {
  /** Whether the figures are shown: enough scored datapoints carry the reference's CRPS. */
  available: boolean;
  /** Scored datapoints that carry it (the pairs compared). */
  count: number;
  /** 1 − CRPS_ensemble / CRPS_reference over those datapoints, both on the 19 published quantiles. */
  crpsSkill?: number;
  /** Diebold–Mariano on CRPS_ensemble − CRPS_reference (negative: the ensemble's is smaller), HAC. */
  dieboldMariano?: { statistic: number; pValue: number };
  /** Why the figures are absent. */
  reason?: string;
}

const COLUMN = { garch: 'crpsGarch', har_rv: 'crpsHarRv' } as const satisfies Record<
  LiveReferenceName,
  keyof ScoredView
>;
export const REFERENCE_LABEL: Record<LiveReferenceName, string> = { garch: 'GARCH(1,1)', har_rv: 'HAR-RV' };

/** One reference's comparison over the scored rows of one symbol × horizon (oldest first). */
function referenceRecord(
  rows: ScoredView,
  name: LiveReferenceName,
  horizon: Horizon,
  stepMs: number,
  minSample: number,
): ReferenceRecord {
  let ensemble = 0;
  let reference = 0;
  const d: number[] = [];
  const refs = rows[COLUMN[name]];
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    if (Number.isNaN(ref)) continue;
    const e = rows.crpsPublished[i]!;
    ensemble += e;
    reference += ref;
    d.push(e - ref);
  }
  const count = d.length;
  if (count === 0)
    return {
      available: false,
      count,
      reason: `no scored datapoint carries a ${REFERENCE_LABEL[name]} forecast yet: the reference is first fitted once a day of bars is held (plus the symbol's refit phase, under a day), then scored on the datapoints made after its fit once their horizon has passed`,
    };
  if (count < minSample)
    return {
      available: false,
      count,
      reason: `${count} of the ${minSample} scored datapoints needed carry a ${REFERENCE_LABEL[name]} forecast`,
    };
  const dm = dieboldMariano(d, Math.max(1, Math.round(HORIZON_MS[horizon] / stepMs)));
  return {
    available: true,
    count,
    crpsSkill: reference > 0 ? 1 - ensemble / reference : 0,
    dieboldMariano: { statistic: dm.statistic, pValue: dm.pValue },
  };
}

/** The ensemble against GARCH(1,1) and HAR-RV on the scored rows of one symbol × horizon. */
export function referenceRecords(
  rows: ScoredView,
  horizon: Horizon,
  stepMs: number,
  minSample: number,
): Record<LiveReferenceName, ReferenceRecord> {
  const out = {} as Record<LiveReferenceName, ReferenceRecord>;
  for (const name of LIVE_REFERENCES) out[name] = referenceRecord(rows, name, horizon, stepMs, minSample);
  return out;
}
