import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import type { HorizonForecast } from '../models/engine.ts';
import { EvidenceShrinkage } from '../models/evidence.ts';
import { type DieboldMariano, dieboldMariano } from '../scoring/metrics.ts';
import { FACTORS } from '../types.ts';
import type { BacktestReport } from './report.ts';
import { type BacktestInput, runBacktest } from './run.ts';

const FUNDING = FACTORS.indexOf('funding');

/** One horizon's out-of-sample contribution of the `funding` member (funding, basis, open interest). */
export interface FundingContribution {
  /** Scored forecasts paired by time between the two runs. */
  count: number;
  /** Share of them whose `funding` member had inputs (a settled rate or an open-interest change known at t). */
  shareWithInputs: number;
  /** Mean CRPS of the ensemble (log return) with the derivatives inputs and without them. */
  crpsWith: number;
  crpsWithout: number;
  /** 1 − with / without, percent: > 0 when the inputs improved the forecast. */
  skillPct: number;
  /** Diebold–Mariano test on CRPS(with) − CRPS(without) (negative statistic: the inputs helped). */
  dieboldMariano: DieboldMariano;
  /** The ensemble's CRPS skill (percent) against the calibrated zero-mean reference and the EWMA random walk. */
  withVsReferencePct: number;
  withoutVsReferencePct: number;
  withVsEwmaPct: number;
  withoutVsEwmaPct: number;
  /**
   * The member's walk-forward evidence over the scored period (models/evidence.ts, no decay): b̂, the slope of
   * the realized return on its mean (both in σ), and its t with the overlap-inflated variance.
   */
  memberSlope: number;
  memberT: number;
  /** Its shrinkage factor and ensemble weight at the end of the run (what the production model would pass). */
  memberFinalShrinkage: number;
  memberFinalWeight: number;
}

export interface FundingAblation {
  inputs: { funding: boolean; openInterest: boolean };
  horizons: Partial<Record<Horizon, FundingContribution>>;
}

/**
 * The backtest of `input`, plus an ablation: the same walk-forward run without its funding and open-interest
 * inputs (the `funding` member then contributes 0, as for a spot-only symbol), paired forecast by forecast.
 * Without derivatives inputs it is the plain backtest.
 */
export function runBacktestWithFundingAblation(
  input: BacktestInput,
): BacktestReport & { fundingAblation?: FundingAblation } {
  const hasFunding = Boolean(input.funding?.length);
  const hasOpenInterest = Boolean(input.openInterest?.length);
  if (!hasFunding && !hasOpenInterest) return runBacktest(input);
  const withCrps = new Map<string, number>();
  const member = new Map<Horizon, { m: number[]; y: number[] }>();
  const active = new Map<Horizon, number>();
  const key = (f: HorizonForecast) => `${f.horizon}|${f.t}`;
  const report = runBacktest({
    ...input,
    onScored(f, y, crps) {
      input.onScored?.(f, y, crps);
      withCrps.set(key(f), crps);
      const r = member.get(f.horizon) ?? { m: [], y: [] };
      member.set(f.horizon, r);
      r.m.push(f.rawMemberMu[FUNDING]! / f.sigma);
      r.y.push(y / f.sigma);
      if (f.features.funding) active.set(f.horizon, (active.get(f.horizon) ?? 0) + 1);
    },
  });
  const pairs = new Map<Horizon, { with: number[]; without: number[] }>();
  const without = runBacktest({
    ...input,
    funding: undefined,
    openInterest: undefined,
    leakageCheck: false,
    calibratedWorldReplications: 0,
    onForecast: undefined,
    onScored(f, _y, crps) {
      const w = withCrps.get(key(f));
      if (w === undefined) return;
      const p = pairs.get(f.horizon) ?? { with: [], without: [] };
      pairs.set(f.horizon, p);
      p.with.push(w);
      p.without.push(crps);
    },
  });
  const horizons: FundingAblation['horizons'] = {};
  for (const [h, p] of pairs) {
    const hr = report.horizons[h];
    const hw = without.horizons[h];
    const r = member.get(h);
    if (!hr || !hw || !r || p.with.length < 2) continue;
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const crpsWith = mean(p.with);
    const crpsWithout = mean(p.without);
    const overlap = Math.max(1, Math.round(HORIZON_MS[h] / report.stepMs));
    const e = new EvidenceShrinkage(1, overlap, 1);
    for (let k = 0; k < r.m.length; k++) e.update(r.m[k]!, r.y[k]!);
    horizons[h] = {
      count: p.with.length,
      shareWithInputs: (active.get(h) ?? 0) / hr.count,
      crpsWith,
      crpsWithout,
      skillPct: 100 * (1 - crpsWith / crpsWithout),
      dieboldMariano: dieboldMariano(
        p.with.map((x, k) => x - p.without[k]!),
        overlap,
      ),
      withVsReferencePct: 100 * hr.forecasters.ensemble.crpsSkillVsReference,
      withoutVsReferencePct: 100 * hw.forecasters.ensemble.crpsSkillVsReference,
      withVsEwmaPct: 100 * hr.forecasters.ensemble.crpsSkillVsEwma,
      withoutVsEwmaPct: 100 * hw.forecasters.ensemble.crpsSkillVsEwma,
      memberSlope: e.slope,
      memberT: e.t,
      memberFinalShrinkage: hr.finalShrinkage.funding ?? 0,
      memberFinalWeight: hr.finalWeights.funding ?? 0,
    };
  }
  return {
    ...report,
    elapsedMs: report.elapsedMs + without.elapsedMs,
    fundingAblation: { inputs: { funding: hasFunding, openInterest: hasOpenInterest }, horizons },
  };
}
