import { clamp } from '../math.ts';
import type { LiveInputs } from '../types.ts';
import type { BarSeries, FundingSeries, OpenInterestSeries } from './series.ts';

const M = 60_000;
const H = 60 * M;
const DAY = 24 * H;

/** What the feature functions may see: series (read only up to the bar known at t) and live inputs at t. */
export interface FeatureContext {
  series: BarSeries;
  /** Other symbols' series for market-wide (basket) features; may include `series` itself. */
  basket: readonly BarSeries[];
  funding?: FundingSeries;
  /** The perpetual's open interest (the derivatives module's stored series, or a backtest's file). */
  openInterest?: OpenInterestSeries;
  live?: LiveInputs;
}

/** Per-member feature vectors; `undefined` marks a member whose inputs are missing (it contributes 0). */
export interface FeatureSet {
  t: number;
  /** Index of the last bar known at t. */
  index: number;
  /** Last known close (the backtest's baseline; live uses the snapshot mid). */
  lastClose: number;
  orderflow?: Float64Array;
  funding?: Float64Array;
  macro?: Float64Array;
  ai: Float64Array;
}

export const FEATURE_NAMES = {
  orderflow: ['flow15m', 'flow1h', 'ret15mZ', 'bookImbalance', 'tradeFlowImbalance'],
  funding: ['fundingRate', 'fundingChange', 'basis', 'oiChange4hZ', 'oiChangeXMom4h'],
  macro: ['basketMom1hZ', 'basketMom4hZ', 'volRegime', 'todSin', 'todCos', 'weekend', 'mom24hZ'],
  ai: [
    'mom1hZ',
    'mom4hZ',
    'ret5mZ',
    'rev15xRegime',
    'basketXRegime',
    'flowXabsRet',
    'tod2Sin',
    'tod2Cos',
    'regimeSq',
  ],
} as const;

const Z = 5;
const z = (x: number | undefined, sd: number): number =>
  x === undefined || !(sd > 0) ? 0 : clamp(x / sd, -Z, Z);

/**
 * Features at time t from data known at t only: the last bar used is the last one whose close time ≤ t,
 * so the bar in progress (its close included) is never read. Every quantity is scale-free (a z-score, a
 * share or a bounded rate) so the same coefficients work for any symbol and any bar size.
 * Returns undefined when the symbol has no bar known at t or less than 1 h of history.
 */
export function extractFeatures(ctx: FeatureContext, t: number): FeatureSet | undefined {
  const s = ctx.series;
  const i = s.indexAt(t);
  if (i < 0) return undefined;
  const vDay = s.rv(i, DAY) ?? s.rv(i, 4 * H) ?? s.rv(i, H);
  if (vDay === undefined || !(vDay > 0)) return undefined;
  const sd = (w: number) => Math.sqrt(vDay * w);
  const v1h = s.rv(i, H) ?? vDay;
  const v72 = s.rv(i, 3 * DAY) ?? vDay;
  const volRegime = clamp(Math.log(v1h / v72), -3, 3);

  const r5 = z(s.ret(i, 5 * M), sd(5 * M));
  const r15 = z(s.ret(i, 15 * M), sd(15 * M));
  const r1h = z(s.ret(i, H), sd(H));
  const r4h = z(s.ret(i, 4 * H), sd(4 * H));
  const r24 = z(s.ret(i, DAY), sd(DAY));

  // Order flow: candle flow proxy always (when volume is recorded); book and trade imbalance live only.
  const live = ctx.live;
  const f15 = s.flow(i, 15 * M);
  const f1h = s.flow(i, H);
  const hasVolume = s.sumVol[i]! > 0;
  const hasLiveFlow = live?.bookImbalance !== undefined || live?.tradeFlowImbalance !== undefined;
  const orderflow =
    hasVolume || hasLiveFlow
      ? Float64Array.of(
          hasVolume ? (f15 ?? 0) : 0,
          hasVolume ? (f1h ?? 0) : 0,
          r15,
          clamp(live?.bookImbalance ?? 0, -1, 1),
          clamp(live?.tradeFlowImbalance ?? 0, -1, 1),
        )
      : undefined;

  // Funding, basis and open interest: the settled rate known at t (live snapshot first, then the recorded
  // series); open interest's 4 h change against its typical 4 h change, alone and signed by the price's.
  const settled = ctx.funding?.at(t);
  const rate = live?.fundingRate ?? settled?.rate;
  const oi = openInterestChange(ctx.openInterest, t);
  const oiZ = oi === undefined ? undefined : z(oi.change, oi.typical);
  const funding =
    rate !== undefined || live?.basisBps !== undefined || oiZ !== undefined
      ? Float64Array.of(
          rate !== undefined ? clamp(rate / 1e-4 - 1, -Z, Z) : 0,
          settled?.previous !== undefined && rate !== undefined
            ? clamp((rate - settled.previous) / 1e-4, -Z, Z)
            : 0,
          live?.basisBps !== undefined ? clamp(live.basisBps / 10, -Z, Z) : 0,
          oiZ ?? 0,
          oiZ !== undefined ? clamp((oiZ * r4h) / 2, -Z, Z) : 0,
        )
      : undefined;

  // Macro: basket momentum (mean z over the symbols with a bar known at t), vol regime, calendar.
  let b1 = 0;
  let b4 = 0;
  let nb = 0;
  for (const other of ctx.basket) {
    const j = other === s ? i : other.indexAt(t);
    if (j < 0 || t - other.closeTime[j]! > H) continue;
    const ov = other.rv(j, DAY) ?? other.rv(j, 4 * H);
    if (ov === undefined || !(ov > 0)) continue;
    b1 += z(other.ret(j, H), Math.sqrt(ov * H));
    b4 += z(other.ret(j, 4 * H), Math.sqrt(ov * 4 * H));
    nb++;
  }
  if (nb > 0) {
    b1 /= nb;
    b4 /= nb;
  } else {
    b1 = r1h;
    b4 = r4h;
  }
  const tod = ((t % DAY) / DAY) * 2 * Math.PI;
  const dow = new Date(t).getUTCDay();
  const weekend = (dow === 0 || dow === 6 ? 1 : 0) - 2 / 7;
  const macro = Float64Array.of(b1, b4, volRegime, Math.sin(tod), Math.cos(tod), weekend, r24);

  const ai = Float64Array.of(
    r1h,
    r4h,
    r5,
    clamp(r15 * volRegime, -Z, Z),
    clamp(b1 * volRegime, -Z, Z),
    clamp((f1h ?? 0) * Math.abs(r15), -Z, Z),
    Math.sin(2 * tod),
    Math.cos(2 * tod),
    volRegime * volRegime - 0.5,
  );
  return { t, index: i, lastClose: s.close[i]!, orderflow, funding, macro, ai };
}

/** Open interest's change over 4 h, against its typical 4 h change over the last 7 days (samples ≤ 2 h old). */
export function openInterestChange(series: OpenInterestSeries | undefined, t: number) {
  return series?.changeAt(t, 4 * H, 7 * DAY, 2 * H);
}
