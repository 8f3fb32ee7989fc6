import type { TrackRecordSource } from './ports.ts';

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The forecast track record per horizon: each metric is the mean over every scored datapoint of that
 * horizon, i.e. the per-symbol figures weighted by their counts. `calibrationError` is the expected
 * calibration error (ECE) of the confidence, combined the same way.
 */
export function summarizeTrackRecord(record: ReturnType<TrackRecordSource['trackRecord']>) {
  const byHorizon = new Map<
    string,
    { count: number; hit: number; brier: number; crps: number; ece: number; symbols: number }
  >();
  for (const r of record.rows) {
    const e = byHorizon.get(r.horizon) ?? { count: 0, hit: 0, brier: 0, crps: 0, ece: 0, symbols: 0 };
    e.count += r.count;
    e.hit += r.hitRate * r.count;
    e.brier += r.brier * r.count;
    e.crps += r.crpsSkillVsRandomWalk * r.count;
    e.ece += r.ece * r.count;
    e.symbols++;
    byHorizon.set(r.horizon, e);
  }
  const horizons = [...byHorizon.entries()]
    .filter(([, e]) => e.count > 0)
    .map(([horizon, e]) => ({
      horizon,
      scored: e.count,
      symbols: e.symbols,
      hitRate: round(e.hit / e.count),
      calibrationError: round(e.ece / e.count),
      crpsSkill: round(e.crps / e.count),
      brier: round(e.brier / e.count),
    }))
    .sort((a, b) => horizonMinutes(a.horizon) - horizonMinutes(b.horizon));
  return { horizons, modelVersion: record.modelVersion, asOf: record.generatedAt };
}

const horizonMinutes = (h: string) =>
  h.endsWith('h') ? Number.parseInt(h, 10) * 60 : Number.parseInt(h, 10);
