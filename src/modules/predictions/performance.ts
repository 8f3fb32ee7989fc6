import { presentGaps } from './present.ts';
import { MODEL_VERSION } from './models/engine.ts';
import type { PredictionGap } from './repository.ts';
import { referenceRecords } from './scoring/reference-record.ts';
import type { ScoredColumns, ScoredView } from './scoring/scored-columns.ts';
import { roundDeep, trackRecord } from './scoring/track-record.ts';
import { HORIZON_MS, type Horizon } from '../identifiers/index.ts';

/**
 * The performance report: the live track record per symbol|horizon (scored, not backfilled rows of the last
 * 30 days), shown only once a cell has enough independent outcomes, with the recorded gaps; the comparison
 * with the fitted GARCH(1,1) and HAR-RV references the same, over the datapoints that carry their CRPS.
 */
export function performanceReport(from: {
  /** Scored datapoints per `${symbol}|${horizon}`, oldest first. */
  allScored: ReadonlyMap<string, ScoredColumns>;
  /** The refresh period (at least a minute) on the data's clock. */
  stepMs: number;
  /** Independent outcomes a cell needs before its figures are shown. */
  minIndependentOutcomes: number;
  gaps: readonly PredictionGap[];
  /** When the newest refresh happened. */
  generatedAt: () => number;
}): Record<string, unknown> {
  const { stepMs } = from;
  const groups = new Map<string, ScoredView>();
  for (const [k, columns] of from.allScored) if (columns.length) groups.set(k, columns.view());
  const data = [...groups.entries()].map(([k, rows]) => {
    const [symbol, horizon] = k.split('|') as [string, Horizon];
    const minSample = from.minIndependentOutcomes * Math.max(1, Math.round(HORIZON_MS[horizon] / stepMs));
    const times = rows.generatedAt;
    const span = {
      from: new Date(times[0]!).toISOString(),
      to: new Date(times[times.length - 1]!).toISOString(),
    };
    const references = roundDeep(referenceRecords(rows, horizon, stepMs, minSample));
    if (times.length < minSample)
      return { symbol, horizon, count: times.length, minSample, sample: 'insufficient', references, ...span };
    return {
      symbol,
      horizon,
      ...roundDeep(trackRecord(rows, horizon, stepMs)),
      minSample,
      sample: 'sufficient',
      references,
      ...span,
    };
  });
  data.sort((a, b) => `${a.symbol}|${a.horizon}`.localeCompare(`${b.symbol}|${b.horizon}`));
  return {
    data,
    randomWalk: 'Gaussian random walk with EWMA volatility (half-life 1 h)',
    reference:
      'Calibrated zero-mean reference: the published quantiles re-centred on the baseline; both scored on the 19 published quantiles',
    references: {
      garch:
        'GARCH(1,1): Gaussian quasi-maximum likelihood on the 1-minute returns held (up to 14 days; the service keeps 8), refitted daily; zero mean, calibrated by the engine’s conformal layer; both scored on the 19 published quantiles',
      har_rv:
        'HAR-RV: OLS of the realized variance over the next horizon on that over the last 1, 5 and 22 horizons (rows of up to 30 days held), refitted daily; zero mean, calibrated by the engine’s conformal layer; both scored on the 19 published quantiles',
    },
    modelVersion: MODEL_VERSION,
    generatedAt: new Date(from.generatedAt()).toISOString(),
    gaps: presentGaps(from.gaps),
  };
}
