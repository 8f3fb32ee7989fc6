import { type FeatureContext, openInterestChange } from './features/extract.ts';
import { sortedQuantile } from './math.ts';
import type { LiveInputs } from './types.ts';

const H = 60 * 60_000;
const DAY = 24 * H;
/** The hourly volatilities behind the median: the last 30 days at most (live holds about 3). */
const MEDIAN_HOURS = 30 * 24;

/**
 * What the market looked like at a forecast, in trader's units, for the outlook's driver sentences: read from
 * the same series and live inputs as the features (nothing after t). Absent: not known at t.
 */
export interface MarketFacts {
  /** Funding rate per 8 h funding period (fraction): the announced live rate, else the newest settled one. */
  fundingRate?: number;
  /** Hours between funding settlements, when not 8. */
  fundingIntervalHours?: number;
  /** Perpetual over spot, basis points (live only). */
  basisBps?: number;
  /** Open interest's change over the last 4 h, percent (the same reading the `funding` member's features take). */
  openInterestChange4hPct?: number;
  /** Order-book imbalance in [-1, 1], + when bids are heavier (live only). */
  bookImbalance?: number;
  /** Signed share of the last 5 minutes' traded volume, + when buyers took more (live only). */
  tradeFlowImbalance?: number;
  /** Log returns of the symbol over the last hour and the last 24 h. */
  return1h?: number;
  return24h?: number;
  /** Mean 1 h log return of the other symbols of the basket with a bar in the last hour, and how many. */
  basketReturn1h?: number;
  basketSymbols?: number;
  /** Realized volatility (σ of the log return) over the last hour, and the median of the hourly ones held. */
  vol1h?: number;
  vol1hMedian?: number;
  /** Days of history behind that median. */
  volDays?: number;
}

const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : undefined);

export function marketFacts(ctx: FeatureContext, t: number, live?: LiveInputs): MarketFacts {
  const s = ctx.series;
  const i = s.indexAt(t);
  if (i < 0) return {};
  const facts: MarketFacts = {};
  const rate = live?.fundingRate ?? ctx.funding?.at(t)?.rate;
  if (finite(rate) !== undefined) facts.fundingRate = rate;
  if (
    facts.fundingRate !== undefined &&
    live?.fundingRate !== undefined &&
    live.fundingIntervalHours !== undefined
  )
    if (live.fundingIntervalHours !== 8) facts.fundingIntervalHours = live.fundingIntervalHours;
  if (finite(live?.basisBps) !== undefined) facts.basisBps = live!.basisBps;
  const oi = openInterestChange(ctx.openInterest, t);
  if (oi !== undefined) facts.openInterestChange4hPct = 100 * Math.expm1(oi.change);
  if (finite(live?.bookImbalance) !== undefined) facts.bookImbalance = live!.bookImbalance;
  if (finite(live?.tradeFlowImbalance) !== undefined) facts.tradeFlowImbalance = live!.tradeFlowImbalance;
  facts.return1h = finite(s.ret(i, H));
  facts.return24h = finite(s.ret(i, DAY));
  let sum = 0;
  let n = 0;
  for (const other of ctx.basket) {
    if (other === s || other.symbol === s.symbol) continue;
    const j = other.indexAt(t);
    if (j < 0 || t - other.closeTime[j]! > H) continue;
    const r = other.ret(j, H);
    if (r === undefined) continue;
    sum += r;
    n++;
  }
  if (n) {
    facts.basketReturn1h = sum / n;
    facts.basketSymbols = n;
  }
  const v = s.rv(i, H);
  if (v !== undefined) facts.vol1h = Math.sqrt(v * H);
  const end = s.closeTime[i]!;
  const hourly: number[] = [];
  for (let k = 0; k < MEDIAN_HOURS && end - (k + 1) * H >= s.closeTime[0]!; k++) {
    const hv = s.rvBetween(i, end - (k + 1) * H, end - k * H);
    if (hv !== undefined) hourly.push(Math.sqrt(hv * H));
  }
  if (hourly.length >= 24) {
    facts.vol1hMedian = sortedQuantile(
      hourly.sort((a, b) => a - b),
      0.5,
    );
    facts.volDays = Math.round((hourly.length / 24) * 10) / 10;
  }
  for (const key of Object.keys(facts) as (keyof MarketFacts)[])
    if (facts[key] === undefined) delete facts[key];
  return facts;
}
