import type { MarketFacts } from './facts.ts';
import type { Factor } from './types.ts';

/**
 * The outlook's driver sentences: what each factor's inputs read now, in the units a trader uses, then
 * whether the model has earned a direction from it. Built from the facts stored with the datapoints.
 */

const signed = (x: number, digits: number) =>
  `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(digits)}`;
/** A log return as a signed simple percentage. */
const movePct = (logReturn: number) => `${signed(100 * Math.expm1(logReturn), 2)} %`;

function facts(f: Factor, m: MarketFacts, fundingKnown: boolean | undefined): string | undefined {
  switch (f) {
    case 'orderflow': {
      const parts: string[] = [];
      if (m.bookImbalance !== undefined)
        parts.push(
          `Order-book imbalance is ${signed(m.bookImbalance, 2)} (${m.bookImbalance >= 0 ? 'bids' : 'asks'} heavier)`,
        );
      if (m.tradeFlowImbalance !== undefined)
        parts.push(
          `5-minute trade flow is ${signed(m.tradeFlowImbalance, 2)} (${m.tradeFlowImbalance >= 0 ? 'buyers' : 'sellers'} took more)`,
        );
      return parts.length ? parts.join('; ') : 'No live order-book or trade flow in this forecast';
    }
    case 'funding': {
      const oi = openInterestWords(m.openInterestChange4hPct);
      if (m.fundingRate === undefined) {
        if (oi) return oi.charAt(0).toUpperCase() + oi.slice(1);
        if (fundingKnown === false) return undefined;
        return 'No funding rate known at this forecast';
      }
      const r = m.fundingRate;
      const who = r > 0 ? 'longs pay shorts' : r < 0 ? 'shorts pay longs' : 'neither side pays';
      const basis =
        m.basisBps === undefined
          ? ''
          : `; the perpetual trades ${Math.abs(m.basisBps).toFixed(1)} bps ${m.basisBps >= 0 ? 'over' : 'under'} spot`;
      return `Funding is ${signed(100 * r, 4)} % per ${m.fundingIntervalHours ?? 8} h, ${who}${basis}${oi ? `; ${oi}` : ''}`;
    }
    case 'macro': {
      const parts: string[] = [];
      if (m.basketReturn1h !== undefined)
        parts.push(
          `The other ${m.basketSymbols} coin${m.basketSymbols === 1 ? '' : 's'} moved ${movePct(m.basketReturn1h)} over the last hour`,
        );
      if (m.vol1h !== undefined) {
        const v = `1h realized volatility is ${(100 * m.vol1h).toFixed(2)} %`;
        if (m.vol1hMedian !== undefined && m.vol1hMedian > 0) {
          const ratio = m.vol1h / m.vol1hMedian;
          const where = ratio > 1.1 ? 'above' : ratio < 0.9 ? 'below' : 'near';
          parts.push(`${v}, ${where} its ${m.volDays}-day median of ${(100 * m.vol1hMedian).toFixed(2)} %`);
        } else parts.push(v);
      }
      return parts.length ? parts.join('; ') : undefined;
    }
    case 'ai_residual': {
      if (m.return1h === undefined) return undefined;
      const day = m.return24h === undefined ? '' : ` and ${movePct(m.return24h)} over 24 h`;
      return `Price moved ${movePct(m.return1h)} over the last hour${day}`;
    }
  }
}

/** Open interest's 4 h change in words: whether positions are being opened or closed. */
function openInterestWords(pct: number | undefined): string | undefined {
  if (pct === undefined) return undefined;
  if (Math.abs(pct) < 0.05) return 'open interest is flat over 4 h';
  return `open interest ${pct > 0 ? 'rose' : 'fell'} ${Math.abs(pct).toFixed(1)} % over 4 h (positions ${pct > 0 ? 'opened' : 'closed'})`;
}

/** What the factor feeds the model, for the sentence's second half. */
const WHAT: Record<Factor, string> = {
  orderflow: 'order flow',
  funding: 'funding and basis',
  macro: 'market-wide momentum and the volatility regime',
  ai_residual: 'recent momentum and reversal',
};

/**
 * One driver's sentence. `direction` is the side the model's earned mean takes from the factor (neutral: no
 * earned direction from it, at the horizons summarized).
 */
export function driverReason(
  f: Factor,
  m: MarketFacts,
  direction: 'bullish' | 'bearish' | 'neutral',
  fundingKnown: boolean | undefined,
): string {
  const read = facts(f, m, fundingKnown);
  if (f === 'funding' && read === undefined)
    return 'No funding data: this market source has no perpetual funding feed.';
  const what =
    f === 'funding' && m.openInterestChange4hPct !== undefined ? 'funding, basis and open interest' : WHAT[f];
  const verdict =
    direction === 'neutral'
      ? `the model has earned no direction from ${what} at these horizons`
      : `the model's record earns a ${direction === 'bullish' ? 'bullish' : 'bearish'} lean from ${what}`;
  return read === undefined
    ? `No ${what} figures recorded with this forecast; ${verdict}.`
    : `${read}: ${verdict}.`;
}
